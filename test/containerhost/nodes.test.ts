import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containerhostNodes } from '../../src/db/schema/index.js';
import { freePort, listenOnLoopback } from '../services/peers.js';
import { auditEventsAbout } from '../support/audit-events.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { describeResourceScopes } from '../support/resource-scopes.js';

const PEM = (label: string, body: string) => `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
const CA = PEM('CERTIFICATE', 'Y2EtbWF0ZXJpYWwtdGhhdC1pcy1zZWNyZXQtZW5vdWdo');
const CERT = PEM('CERTIFICATE', 'Y2xpZW50LWNlcnRpZmljYXRlLW1hdGVyaWFs');
const KEY = PEM('PRIVATE KEY', 'dG9wLXNlY3JldC1jbGllbnQta2V5LW1hdGVyaWFs');
const SSH_KEY = PEM('OPENSSH PRIVATE KEY', 'c3NoLWtleS1tYXRlcmlhbC10aGF0LWlzLXNlY3JldA==');
const NODES = '/api/containerhost/nodes';
const MISSING = '00000000-0000-4000-8000-000000000000';

let gateway: TestGateway;
let hangingServer: net.Server;
let hangingPort: number;
const hanging = new Set<net.Socket>();
let counter = 0;
const uniqueName = () => `node-${++counter}`;

async function createNode(body: Record<string, unknown> = {}) {
  const result = await gateway.call('POST', NODES, {
    body: { name: uniqueName(), endpoint: 'unix:///run/infragate-test/none.sock', ...body },
  });
  expect(result.status).toBe(201);
  return result.body.data as { id: string; name: string };
}

beforeAll(async () => {
  // Accepts connections and never answers: an engine that hangs.
  hangingServer = net.createServer((socket) => hanging.add(socket));
  hangingPort = await listenOnLoopback(hangingServer);
  gateway = await startTestGateway({ dockerTimeoutMs: 500 });
});
afterAll(async () => {
  await gateway.close();
  for (const socket of hanging) socket.destroy();
  await new Promise((resolve) => hangingServer.close(resolve));
});

describe('POST /api/containerhost/nodes', () => {
  it('registers a unix socket node and answers 201 with the node', async () => {
    const result = await gateway.call('POST', NODES, {
      body: { name: '  local engine ', endpoint: 'unix:///var/run/docker.sock' },
    });
    expect(result.status).toBe(201);
    expect(result.body.data).toMatchObject({
      name: 'local engine',
      endpoint: 'unix:///var/run/docker.sock',
      transport: 'unix',
      tls: { ca: false, cert: false, key: false },
      hasSshKey: false,
      helperImage: null,
    });
  });

  it('registers a tcp node with TLS material and never answers it back', async () => {
    const result = await gateway.call('POST', NODES, {
      body: { name: uniqueName(), endpoint: 'tcp://10.0.0.5:2376', tlsCa: CA, tlsCert: CERT, tlsKey: KEY },
    });
    expect(result.status).toBe(201);
    expect(result.body.data.tls).toEqual({ ca: true, cert: true, key: true });
    for (const secret of ['Y2EtbWF0', 'Y2xpZW50', 'dG9wLXNl', 'BEGIN'])
      expect(result.text).not.toContain(secret);
  });

  it('stores TLS material and SSH keys sealed, not in plain text', async () => {
    const tcp = await createNode({ endpoint: 'tcp://10.0.0.6:2376', tlsCert: CERT, tlsKey: KEY });
    const ssh = await createNode({ endpoint: 'ssh://deploy@10.0.0.7', sshPrivateKey: SSH_KEY });
    const rows = await gateway.deps.db.select().from(containerhostNodes);
    const stored = JSON.stringify(rows.filter((row) => [tcp.id, ssh.id].includes(row.id)));
    expect(stored).not.toContain('dG9wLXNl');
    expect(stored).not.toContain('c3NoLWtl');
    const sshRow = rows.find((row) => row.id === ssh.id)!;
    expect(gateway.deps.secrets.open(sshRow.sshKeySealed!, 'containerhost_nodes.ssh_key')).toBe(SSH_KEY);
  });

  it('records the creation in the audit trail without any secret', async () => {
    const node = await createNode({ endpoint: 'ssh://ops@10.0.0.8:2222', sshPrivateKey: SSH_KEY });
    const [event] = await auditEventsAbout(gateway, node.id);
    expect(event).toMatchObject({ action: 'containerhost.node.created', targetType: 'containerhost_node' });
    expect(event!.metadata).toMatchObject({
      endpoint: 'ssh://ops@10.0.0.8:2222',
      secretsSet: ['sshPrivateKey'],
    });
    expect(JSON.stringify(event)).not.toContain('c3NoLWtl');
  });

  it('answers 409 for a name that is taken', async () => {
    const node = await createNode();
    const result = await gateway.call('POST', NODES, {
      body: { name: node.name, endpoint: 'unix:///x.sock' },
    });
    expectError(result, 409, 'CONFLICT');
    expect(result.body.details.reason).toBe('NODE_NAME_TAKEN');
  });

  it('requires name and endpoint', async () => {
    const result = await gateway.call('POST', NODES, { body: {} });
    expectValidationError(result, ['name']);
    expectValidationError(result, ['endpoint']);
  });

  it('refuses a blank name and one longer than 255 characters', async () => {
    expectValidationError(
      await gateway.call('POST', NODES, { body: { name: '   ', endpoint: 'unix:///x.sock' } }),
      ['name'],
    );
    expectValidationError(
      await gateway.call('POST', NODES, { body: { name: 'n'.repeat(256), endpoint: 'unix:///x.sock' } }),
      ['name'],
    );
  });

  it('refuses endpoints that are not unix://, tcp://host:port or ssh://user@host', async () => {
    for (const endpoint of [
      'http://10.0.0.1:2375',
      'tcp://10.0.0.1',
      'ssh://10.0.0.1',
      'unix://relative.sock',
      'nonsense',
    ]) {
      const result = await gateway.call('POST', NODES, { body: { name: uniqueName(), endpoint } });
      expect({ endpoint, status: result.status }).toEqual({ endpoint, status: 400 });
      expectValidationError(result, ['endpoint']);
    }
  });

  it('refuses TLS material on a non-tcp endpoint and an SSH key on a non-ssh one', async () => {
    expectValidationError(
      await gateway.call('POST', NODES, {
        body: { name: uniqueName(), endpoint: 'unix:///x.sock', tlsCa: CA },
      }),
      ['tlsCa'],
    );
    expectValidationError(
      await gateway.call('POST', NODES, {
        body: { name: uniqueName(), endpoint: 'tcp://10.0.0.1:2376', sshPrivateKey: SSH_KEY },
      }),
      ['sshPrivateKey'],
    );
  });

  it('refuses a client certificate without its key', async () => {
    expectValidationError(
      await gateway.call('POST', NODES, {
        body: { name: uniqueName(), endpoint: 'tcp://10.0.0.1:2376', tlsCert: CERT },
      }),
      ['tlsKey'],
    );
  });

  it('refuses TLS material that is not PEM', async () => {
    expectValidationError(
      await gateway.call('POST', NODES, {
        body: { name: uniqueName(), endpoint: 'tcp://10.0.0.1:2376', tlsCa: 'not a certificate' },
      }),
      ['tlsCa'],
    );
  });

  it('answers 401 without a token and 403 without containerhost:manage', async () => {
    const body = { name: uniqueName(), endpoint: 'unix:///x.sock' };
    expectError(await gateway.call('POST', NODES, { body, token: null }), 401, 'UNAUTHORIZED');
    const viewer = await gateway.tokenWithScopes(['containerhost:view']);
    expectError(await gateway.call('POST', NODES, { body, token: viewer }), 403, 'FORBIDDEN');
  });
});

describe('GET /api/containerhost/nodes', () => {
  it('lists nodes by name, paginated', async () => {
    await createNode();
    await createNode();
    const result = await gateway.call('GET', NODES, { query: { limit: 1 } });
    expect(result.status).toBe(200);
    expect(result.body.data).toHaveLength(1);
    expect(result.body.pagination.limit).toBe(1);
    expect(result.body.pagination.total).toBeGreaterThanOrEqual(2);
  });

  it('filters nodes by a substring of name or endpoint', async () => {
    const node = await createNode({ endpoint: 'unix:///run/filter-me/docker.sock' });
    const result = await gateway.call('GET', NODES, { query: { q: 'FILTER-ME' } });
    expect(result.body.data.map((n: { id: string }) => n.id)).toEqual([node.id]);
  });

  it('refuses a limit above 100', async () => {
    expectValidationError(await gateway.call('GET', NODES, { query: { limit: 101 } }), ['limit']);
  });

  it('answers 401 without a token and 403 with a token without the scope', async () => {
    expectError(await gateway.call('GET', NODES, { token: null }), 401, 'UNAUTHORIZED');
    expectError(
      await gateway.call('GET', NODES, { token: await gateway.tokenWithScopes([]) }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('GET /api/containerhost/nodes/{nodeId}', () => {
  it('answers 422 ENGINE_UNREACHABLE when the socket does not exist', async () => {
    const node = await createNode({ endpoint: 'unix:///run/infragate-test/absent.sock' });
    const result = await gateway.call('GET', `${NODES}/${node.id}`);
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details).toMatchObject({ reason: 'ENGINE_UNREACHABLE', errno: 'ENOENT' });
    expect(result.body.details.explanation).toEqual(expect.any(String));
  });

  it('answers 422 ENGINE_UNREACHABLE when the port refuses connections', async () => {
    const node = await createNode({ endpoint: `tcp://127.0.0.1:${await freePort()}` });
    const result = await gateway.call('GET', `${NODES}/${node.id}`);
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details).toMatchObject({ reason: 'ENGINE_UNREACHABLE', errno: 'ECONNREFUSED' });
  });

  it('answers 422 when an ssh:// engine cannot be reached', async () => {
    const node = await createNode({ endpoint: `ssh://deploy@127.0.0.1:${await freePort()}` });
    const result = await gateway.call('GET', `${NODES}/${node.id}`);
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toMatch(/^ENGINE_/);
  });

  it('answers 422 ENGINE_TIMEOUT instead of hanging when the engine never answers', async () => {
    const node = await createNode({ endpoint: `tcp://127.0.0.1:${hangingPort}` });
    const result = await gateway.call('GET', `${NODES}/${node.id}`);
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toBe('ENGINE_TIMEOUT');
  });

  it('answers 422 from the read models of an unreachable node too', async () => {
    const node = await createNode();
    for (const kind of ['containers', 'networks', 'volumes', 'images']) {
      const result = await gateway.call('GET', `${NODES}/${node.id}/${kind}`);
      expect({ kind, status: result.status, reason: result.body.details?.reason }).toEqual({
        kind,
        status: 422,
        reason: 'ENGINE_UNREACHABLE',
      });
    }
  });

  it('answers 404 for an unknown node and 400 for an id that is not a UUID', async () => {
    expectError(await gateway.call('GET', `${NODES}/${MISSING}`), 404, 'NOT_FOUND');
    expectValidationError(await gateway.call('GET', `${NODES}/not-a-uuid`), ['nodeId']);
    expectError(await gateway.call('GET', `${NODES}/${MISSING}/containers`), 404, 'NOT_FOUND');
  });

  it('answers 401 without a token and 403 with a token without the scope', async () => {
    expectError(await gateway.call('GET', `${NODES}/${MISSING}`, { token: null }), 401, 'UNAUTHORIZED');
    expectError(
      await gateway.call('GET', `${NODES}/${MISSING}`, { token: await gateway.tokenWithScopes([]) }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('GET with a restrictive egress policy', () => {
  it('refuses a tcp node on loopback with 422 naming the egress rule', async () => {
    const strict = await startTestGateway({ egress: 'private' });
    try {
      const created = await strict.call('POST', NODES, {
        body: { name: 'loopback', endpoint: `tcp://127.0.0.1:${hangingPort}` },
      });
      const result = await strict.call('GET', `${NODES}/${created.body.data.id}`);
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('EGRESS_DENIED');
    } finally {
      await strict.close();
    }
  });
});

describe('PATCH /api/containerhost/nodes/{nodeId}', () => {
  it('renames a node and changes its endpoint', async () => {
    const node = await createNode();
    const result = await gateway.call('PATCH', `${NODES}/${node.id}`, {
      body: { name: `${node.name}-renamed`, endpoint: 'tcp://10.1.1.1:2375' },
    });
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({
      name: `${node.name}-renamed`,
      endpoint: 'tcp://10.1.1.1:2375',
      transport: 'tcp',
    });
  });

  it('clears a secret with null and keeps the others', async () => {
    const node = await createNode({ endpoint: 'tcp://10.0.0.9:2376', tlsCa: CA, tlsCert: CERT, tlsKey: KEY });
    const result = await gateway.call('PATCH', `${NODES}/${node.id}`, { body: { tlsCa: null } });
    expect(result.status).toBe(200);
    expect(result.body.data.tls).toEqual({ ca: false, cert: true, key: true });
  });

  it('validates the node as it would be after the change', async () => {
    const node = await createNode({ endpoint: 'tcp://10.0.0.10:2376', tlsCert: CERT, tlsKey: KEY });
    expectValidationError(await gateway.call('PATCH', `${NODES}/${node.id}`, { body: { tlsKey: null } }), [
      'tlsKey',
    ]);
    expectValidationError(
      await gateway.call('PATCH', `${NODES}/${node.id}`, {
        body: { endpoint: 'unix:///x.sock', tlsCert: CERT, tlsKey: KEY },
      }),
      ['tlsCert'],
    );
  });

  it('answers 409 when the new name is taken', async () => {
    const [first, second] = [await createNode(), await createNode()];
    expectError(
      await gateway.call('PATCH', `${NODES}/${second.id}`, { body: { name: first.name } }),
      409,
      'CONFLICT',
    );
  });

  it('answers 404 for an unknown node', async () => {
    expectError(
      await gateway.call('PATCH', `${NODES}/${MISSING}`, { body: { name: 'x' } }),
      404,
      'NOT_FOUND',
    );
  });

  it('answers 401 without a token and 403 without containerhost:manage', async () => {
    expectError(
      await gateway.call('PATCH', `${NODES}/${MISSING}`, { body: {}, token: null }),
      401,
      'UNAUTHORIZED',
    );
    const viewer = await gateway.tokenWithScopes(['containerhost:view']);
    expectError(
      await gateway.call('PATCH', `${NODES}/${MISSING}`, { body: {}, token: viewer }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('DELETE /api/containerhost/nodes/{nodeId}', () => {
  it('removes a node and audits it', async () => {
    const node = await createNode();
    const result = await gateway.call('DELETE', `${NODES}/${node.id}`);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ success: true });
    expectError(await gateway.call('DELETE', `${NODES}/${node.id}`), 404, 'NOT_FOUND');
    const actions = await auditEventsAbout(gateway, node.id);
    expect(actions.map((event) => event.action)).toContain('containerhost.node.deleted');
  });

  it('answers 401 without a token and 403 without containerhost:manage', async () => {
    expectError(await gateway.call('DELETE', `${NODES}/${MISSING}`, { token: null }), 401, 'UNAUTHORIZED');
    const viewer = await gateway.tokenWithScopes(['containerhost:view']);
    expectError(await gateway.call('DELETE', `${NODES}/${MISSING}`, { token: viewer }), 403, 'FORBIDDEN');
  });
});

describeResourceScopes(() => gateway, {
  area: 'containerhost',
  list: NODES,
  // A node's own record answers only when its engine does; its registry credentials are the gateway's.
  read: (id) => `${NODES}/${id}/registry-credentials`,
  create: async () => (await createNode()).id,
});
