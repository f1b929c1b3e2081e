import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type ServeProcess, startServeProcess } from '../support/cli.js';
import { eventually } from '../support/eventually.js';
import { type AgentProcess, connected, startAgent, stopAgent, tempDir } from './agent-processes.js';

/**
 * Agent nodes end to end: a real gateway (`infragate serve`) and real agents (`infragate agent`), each
 * its own process on loopback.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-agents-'));
const env = { INFRAGATE_DATA_DIR: dataDir, INFRAGATE_AGENT_HEARTBEAT_SECONDS: '1' };
let gateway: ServeProcess;
let token: string;
const agents: AgentProcess[] = [];

beforeAll(async () => {
  gateway = await startServeProcess(env);
  token = gateway.firstToken!;
}, 60_000);
afterAll(async () => {
  await Promise.all(agents.map((agent) => stopAgent(agent)));
  await gateway.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const api = (method: string, url: string, body?: unknown) => gateway.call(method, url, token, body);

async function agentNode(name: string) {
  const created = await api('POST', '/api/nodes', { name, kind: 'agent' });
  expect(created.status).toBe(201);
  return created.body.data as {
    id: string;
    enrollment: { token: string; command: string; expiresAt: string };
  };
}

const enroll = (enrollmentToken: string) =>
  fetch(`${gateway.baseUrl}/agent/enroll`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: enrollmentToken }),
  });

/** Enrols by hand (as an agent would) and answers the agent's credential. */
const credentialFrom = async (enrollmentToken: string) =>
  ((await (await enroll(enrollmentToken)).json()) as { data: { credential: string } }).data.credential;

const nodeOf = async (id: string) => (await api('GET', `/api/nodes/${id}`)).body.data;

/** Opens a tunnel by hand with a credential; answers the HTTP status of a refused upgrade, or the socket. */
function openTunnel(credential: string): Promise<WebSocket | number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${gateway.baseUrl.replace(/^http/, 'ws')}/agent/connect`, {
      headers: { authorization: `Bearer ${credential}` },
    });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.once('error', reject);
  });
}

const closeOf = (socket: WebSocket) =>
  new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );

const credentialIn = (stateDir: string) =>
  (JSON.parse(fs.readFileSync(path.join(stateDir, 'agent.json'), 'utf8')) as { credential: string })
    .credential;

const hello = {
  type: 'hello',
  version: 'test',
  root: '/',
  facts: { hostname: 'raw', os: 'Linux', arch: 'x64', cpus: 1, memoryBytes: 1 },
  capabilities: { files: false, docker: false, metrics: false },
};

describe('enrolling an agent node', () => {
  it('answers a one-time enrolment token and the command to run on the host, once', async () => {
    const node = await agentNode('edge-enrol');
    expect(node.enrollment.token).toMatch(/^igwe_/);
    expect(node.enrollment.command).toContain(`--gateway ${gateway.baseUrl}`);
    expect(node.enrollment.command).toContain(`--token ${node.enrollment.token}`);
    expect(new Date(node.enrollment.expiresAt).getTime()).toBeGreaterThan(Date.now());
    const read = await nodeOf(node.id);
    expect(read).toMatchObject({ kind: 'agent', status: 'pending', rootPath: null, lastSeenAt: null });
    expect(read.enrollment).toBeUndefined();
  });

  it('brings the node online with its host facts once the agent ran the command', async () => {
    const node = await agentNode('edge-online');
    const agent = await startAgent(gateway.baseUrl, { token: node.enrollment.token });
    agents.push(agent);
    await connected(agent);
    const read = await nodeOf(node.id);
    expect(read).toMatchObject({
      status: 'online',
      rootPath: fs.realpathSync(agent.root),
      agentVersion: expect.stringMatching(/^\d+\.\d+/),
      facts: { hostname: os.hostname(), cpus: expect.any(Number), memoryBytes: os.totalmem() },
      capabilities: { files: false, docker: false, metrics: false },
    });
    expect(read.lastSeenAt).not.toBeNull();
    expect(fs.statSync(path.join(agent.stateDir, 'agent.json')).mode & 0o777).toBe(0o600);
  });

  it('refuses a token used a second time with 401', async () => {
    const node = await agentNode('edge-twice');
    expect((await enroll(node.enrollment.token)).status).toBe(200);
    const again = await enroll(node.enrollment.token);
    expect(again.status).toBe(401);
    expect(((await again.json()) as { code: string }).code).toBe('UNAUTHORIZED');
  });

  it('refuses an unknown token with 401 and creates nothing', async () => {
    const before = (await api('GET', '/api/nodes')).body.pagination.total;
    expect((await enroll(`igwe_${'A'.repeat(43)}`)).status).toBe(401);
    expect((await enroll('not-a-token')).status).toBe(401);
    expect((await api('GET', '/api/nodes')).body.pagination.total).toBe(before);
  });

  it('stops an agent whose token was refused, saying why', async () => {
    const agent = await startAgent(gateway.baseUrl, { token: `igwe_${'B'.repeat(43)}` });
    expect(await agent.exited).not.toBe(0);
    expect(agent.stderr()).toContain('refused the enrolment token');
    expect(fs.existsSync(path.join(agent.stateDir, 'agent.json'))).toBe(false);
  });

  it('keeps the credential from being worth anything on the API', async () => {
    const node = await agentNode('edge-api');
    const credential = await credentialFrom(node.enrollment.token);
    const response = await fetch(`${gateway.baseUrl}/api/nodes`, {
      headers: { authorization: `Bearer ${credential}` },
    });
    expect(response.status).toBe(401);
  });
});

describe('the tunnel', () => {
  it('refuses an upgrade without a valid credential with 401', async () => {
    expect(await openTunnel(`igwa_${'C'.repeat(43)}`)).toBe(401);
    expect(await openTunnel(token)).toBe(401);
  });

  it('closes a tunnel that sends a frame of an unknown type', async () => {
    const node = await agentNode('edge-unknown');
    const credential = await credentialFrom(node.enrollment.token);
    const socket = (await openTunnel(credential)) as WebSocket;
    const closed = closeOf(socket);
    socket.send(JSON.stringify({ type: 'format-disk' }));
    expect(await closed).toEqual({ code: 1008, reason: 'unknown frame type "format-disk"' });
  });

  it('closes a tunnel that sends a frame over the size limit, leaving other tunnels open', async () => {
    const [first, second] = [await agentNode('edge-big'), await agentNode('edge-bystander')];
    const big = (await openTunnel(await credentialFrom(first.enrollment.token))) as WebSocket;
    const bystander = (await openTunnel(await credentialFrom(second.enrollment.token))) as WebSocket;
    bystander.send(JSON.stringify(hello));
    await eventually(async () => (await nodeOf(second.id)).status === 'online', 'bystander online');
    const closed = closeOf(big);
    big.send(Buffer.alloc(1024 * 1024 + 1));
    expect((await closed).code).toBe(1009);
    expect((await nodeOf(second.id)).status).toBe('online');
    bystander.close();
  });

  it('marks the node offline when its agent is killed, and raises the alert', async () => {
    const node = await agentNode('edge-kill');
    const agent = await startAgent(gateway.baseUrl, { token: node.enrollment.token });
    await connected(agent);
    await stopAgent(agent, 'SIGKILL');
    await eventually(async () => (await nodeOf(node.id)).status === 'offline', 'node offline');
    const alerts = (await api('GET', '/api/notifications/alerts')).body.data;
    expect(alerts).toContainEqual(
      expect.objectContaining({
        event: 'nodes.node.offline',
        state: 'offline',
        resource: expect.objectContaining({ id: node.id }),
      }),
    );
  });
});

describe('revoking an agent node', () => {
  it('closes the tunnel, stops the agent and refuses its credential from then on', async () => {
    const node = await agentNode('edge-revoke');
    const agent = await startAgent(gateway.baseUrl, { token: node.enrollment.token });
    await connected(agent);
    const revoked = await api('POST', `/api/nodes/${node.id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.status).toBe('revoked');
    expect(await agent.exited).not.toBe(0);
    expect(agent.stderr()).toContain('revoked');
    expect(await openTunnel(credentialIn(agent.stateDir))).toBe(401);
    const events = await api('GET', `/api/audit/events?action=nodes.agent.revoked&targetId=${node.id}`);
    expect(events.body.data).toHaveLength(1);
  });

  it('is 422 for a directory node', async () => {
    const root = tempDir('dir');
    const created = await api('POST', '/api/nodes', { name: 'plain-dir', rootPath: root });
    const revoked = await api('POST', `/api/nodes/${created.body.data.id}/revoke`);
    expect(revoked.status).toBe(422);
    expect(revoked.body.details.reason).toBe('NODE_NOT_AGENT');
  });
});

describe('a gateway restart', () => {
  it('finds the agent back by itself once the gateway is up again', async () => {
    const node = await agentNode('edge-restart');
    const agent = await startAgent(gateway.baseUrl, { token: node.enrollment.token });
    agents.push(agent);
    await connected(agent);
    const port = new URL(gateway.baseUrl).port;
    await gateway.stop();
    gateway = await startServeProcess({ ...env, PORT: port });
    await connected(agent, 2);
    expect((await nodeOf(node.id)).status).toBe('online');
  }, 60_000);
});
