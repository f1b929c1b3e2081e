import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../services/postgres.js';
import { type ServeProcess, startServeProcess } from '../support/cli.js';
import { eventually } from '../support/eventually.js';
import { type AgentProcess, connected, startAgent, stopAgent } from './agent-processes.js';

// An agent's tunnel is held by whichever gateway it dialled; the others learn of it through the
// database (its status) and reach it through NOTIFY (a revocation).
describe('an agent node served by two gateways on one PostgreSQL', () => {
  const servers: ServeProcess[] = [];
  let agent: AgentProcess | undefined;
  let dataDir: string;
  let token: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-agent-instances-'));
    const env = {
      DATABASE_URL: await createDatabase(inject('postgresUrl')),
      INFRAGATE_DATA_DIR: dataDir,
      INFRAGATE_MASTER_KEY: crypto.randomBytes(32).toString('hex'),
    };
    servers.push(await startServeProcess(env));
    servers.push(await startServeProcess(env));
    token = servers[0]!.firstToken!;
  }, 60_000);

  afterAll(async () => {
    if (agent) await stopAgent(agent);
    for (const server of servers) await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is online at both, and revoked at one closes its tunnel at the other', async () => {
    const [first, second] = servers as [ServeProcess, ServeProcess];
    const created = await first.call('POST', '/api/nodes', token, { name: 'edge-shared', kind: 'agent' });
    const nodeId = created.body.data.id as string;
    agent = await startAgent(second.baseUrl, { token: created.body.data.enrollment.token });
    await connected(agent);
    expect((await first.call('GET', `/api/nodes/${nodeId}`, token)).body.data.status).toBe('online');

    expect((await first.call('POST', `/api/nodes/${nodeId}/revoke`, token)).status).toBe(200);
    expect(await agent.exited).not.toBe(0);
    expect(agent.stderr()).toContain('revoked');
    await eventually(
      async () => (await second.call('GET', `/api/nodes/${nodeId}`, token)).body.data.status === 'revoked',
      'revoked at the other gateway',
    );
  });
});
