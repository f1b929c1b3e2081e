import fs from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { backoffMs } from '../core/backoff.js';
import {
  FrameError,
  type Hello,
  MAX_FRAME_BYTES,
  parseFrame,
  TUNNEL_CLOSE,
  Welcome,
} from '../modules/nodes/agents/tunnel-frames.js';
import { type AgentState, readAgentState, writeAgentState } from './agent-state.js';
import { hostFacts } from './host-facts.js';

export interface AgentOptions {
  /** The gateway's address (http:// or https://), as the enrolment command gives it. */
  gateway: string;
  /** The one-time enrolment token; needed only until the agent has its credential. */
  token?: string;
  root: string;
  docker?: string;
  stateDir: string;
  version: string;
  /** The longest wait between two reconnects, in milliseconds. */
  reconnectMaxMs: number;
  log: (line: string) => void;
  signal: AbortSignal;
}

/** Why the agent stops for good: its root is unusable, or its enrolment or credential was refused. */
export class AgentRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AgentRefused';
  }
}

const RECONNECT_BASE_MS = 500;

/**
 * Runs the agent: enrols once (the token for a credential, kept in the state directory), then keeps
 * one tunnel to the gateway open, reconnecting after a jittered, capped backoff, until `signal`
 * aborts. A revoked or unknown credential (401, close 4001) stops it with AgentRefused.
 */
export async function runAgent(options: AgentOptions): Promise<void> {
  const gateway = options.gateway.replace(/\/$/, '');
  const root = await fs.realpath(options.root);
  if (!(await fs.stat(root)).isDirectory())
    throw new AgentRefused(`--root ${options.root} is not a directory`);
  const state = await credentialFor(gateway, options);
  const hello: Hello = {
    type: 'hello',
    version: options.version,
    root,
    facts: hostFacts(),
    capabilities: { files: false, docker: false, metrics: false },
  };
  let failures = 0;
  while (!options.signal.aborted) {
    const outcome = await holdTunnel(gateway, state, hello, options);
    if (outcome === 'welcomed') failures = 0;
    if (options.signal.aborted) return;
    const wait = backoffMs(++failures, RECONNECT_BASE_MS, options.reconnectMaxMs);
    options.log(`tunnel down; reconnecting in ${wait} ms`);
    await sleep(wait, undefined, { signal: options.signal }).catch(() => undefined);
  }
}

/** The saved credential for this gateway, or a new one from the enrolment token. */
async function credentialFor(gateway: string, options: AgentOptions): Promise<AgentState> {
  const saved = await readAgentState(options.stateDir);
  if (saved && saved.gateway === gateway) return saved;
  if (!options.token)
    throw new AgentRefused(`no credential for ${gateway} in ${options.stateDir}: enrol with --token`);
  const response = await fetch(`${gateway}/agent/enroll`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: options.token }),
    signal: options.signal,
  });
  if (response.status === 401)
    throw new AgentRefused('the gateway refused the enrolment token (unknown, already used or expired)');
  if (!response.ok) throw new Error(`enrolment failed: HTTP ${response.status}`);
  const { data } = (await response.json()) as { data: { nodeId: string; credential: string } };
  const state = { gateway, nodeId: data.nodeId, credential: data.credential };
  await writeAgentState(options.stateDir, state);
  options.log(`enrolled as node ${data.nodeId}; credential kept in ${options.stateDir}`);
  return state;
}

/** Opens one tunnel and holds it until it ends; answers whether the gateway welcomed it. */
function holdTunnel(
  gateway: string,
  state: AgentState,
  hello: Hello,
  options: AgentOptions,
): Promise<'welcomed' | 'failed'> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${gateway.replace(/^http/, 'ws')}/agent/connect`, {
      headers: { authorization: `Bearer ${state.credential}` },
      maxPayload: MAX_FRAME_BYTES,
      handshakeTimeout: 10_000,
    });
    let welcomed = false;
    const stop = () => socket.close(1001, 'agent stopping');
    options.signal.addEventListener('abort', stop, { once: true });
    socket.on('unexpected-response', (_request, response) => {
      socket.terminate();
      if (response.statusCode === 401)
        reject(new AgentRefused('the gateway refused the credential (revoked?)'));
      else options.log(`gateway answered the upgrade with HTTP ${response.statusCode}`);
    });
    socket.on('open', () => socket.send(JSON.stringify(hello)));
    socket.on('message', (data, isBinary) => {
      try {
        if (isBinary || welcomed) throw new FrameError('only welcome is expected here');
        const welcome = parseFrame(data.toString(), { welcome: Welcome });
        welcomed = true;
        options.log(`connected to ${gateway} as node ${welcome.nodeId}`);
      } catch (error) {
        socket.close(1008, error instanceof FrameError ? error.message : 'protocol violation');
      }
    });
    socket.on('error', (error) => options.log(`tunnel error: ${error.message}`));
    socket.on('close', (code) => {
      options.signal.removeEventListener('abort', stop);
      if (code === TUNNEL_CLOSE.revoked) reject(new AgentRefused('the gateway revoked this node'));
      else resolve(welcomed ? 'welcomed' : 'failed');
    });
  });
}
