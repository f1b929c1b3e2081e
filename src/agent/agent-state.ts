import fs from 'node:fs/promises';
import path from 'node:path';
import { fsyncDirectory } from '../core/fsync-directory.js';

/** What an enrolled agent keeps: which gateway it belongs to, as which node, and its credential. */
export interface AgentState {
  gateway: string;
  nodeId: string;
  credential: string;
}

const STATE_FILE = 'agent.json';

/** The agent's saved state, or undefined before its enrolment. */
export async function readAgentState(stateDir: string): Promise<AgentState | undefined> {
  try {
    return JSON.parse(await fs.readFile(path.join(stateDir, STATE_FILE), 'utf8')) as AgentState;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Saves the state readable by the agent's user only (the directory 0700, the file 0600): the
 * credential opens the node's tunnel. Written aside, fsynced and renamed, so a crash leaves the old
 * state or the new one.
 */
export async function writeAgentState(stateDir: string, state: AgentState): Promise<void> {
  await fs.mkdir(stateDir, { recursive: true, mode: 0o700 });
  const file = path.join(stateDir, STATE_FILE);
  const partial = `${file}.${process.pid}.tmp`;
  const handle = await fs.open(partial, 'w', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(state, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(partial, file);
  await fsyncDirectory(stateDir);
}
