import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type RunningCli, startCli } from '../support/cli.js';
import { eventually } from '../support/eventually.js';

/** An `infragate agent` started as an operator would (the built CLI, its own state directory and root). */
export interface AgentProcess extends RunningCli {
  root: string;
  stateDir: string;
}

/** A fresh directory for an agent's root or state. */
export const tempDir = (what: string) => fs.mkdtempSync(path.join(os.tmpdir(), `infragate-agent-${what}-`));

/** Starts `infragate agent --gateway <baseUrl> …` with a token (first start) or without (enrolled). */
export async function startAgent(
  baseUrl: string,
  options: { token?: string; root?: string; stateDir?: string; extra?: string[] } = {},
): Promise<AgentProcess> {
  const root = options.root ?? tempDir('root');
  const stateDir = options.stateDir ?? tempDir('state');
  const args = ['agent', '--gateway', baseUrl, '--root', root, '--state-dir', stateDir];
  if (options.token) args.push('--token', options.token);
  args.push('--reconnect-max-seconds', '1', ...(options.extra ?? []));
  const running = await startCli(args, {});
  return { ...running, root, stateDir };
}

/** Waits until the agent printed that its tunnel is up `times` times in all. */
export const connected = (agent: AgentProcess, times = 1) =>
  eventually(
    () => (agent.stdout().match(/connected to /g)?.length ?? 0) >= times,
    `agent connected ${times}×`,
  );

/** Stops the agent (SIGTERM unless told otherwise) and answers its exit code. */
export async function stopAgent(agent: AgentProcess, signal: NodeJS.Signals = 'SIGTERM') {
  if (agent.child.exitCode === null && agent.child.signalCode === null) agent.child.kill(signal);
  return agent.exited;
}
