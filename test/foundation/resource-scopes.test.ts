import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../src/core/auth/tokens.js';
import { createNode } from '../nodes/helpers.js';
import { auditEventsMatching } from '../support/audit-events.js';
import { eventually } from '../support/eventually.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

// How authentication checks a scope that names one resource, shown on storage nodes (the smallest
// area with resources); every area shares the mechanism (test/support/resource-scopes.ts).

let gateway: TestGateway;
let mine: string;
let theirs: string;
beforeAll(async () => {
  gateway = await startTestGateway();
  mine = (await createNode(gateway)).id;
  theirs = (await createNode(gateway)).id;
});
afterAll(() => gateway.close());

const rename = (id: string, token: string, name: unknown = `node-${crypto.randomBytes(3).toString('hex')}`) =>
  gateway.call('PATCH', `/api/nodes/${id}`, { token, body: { name } });

describe('the order of answers on one resource', () => {
  it('answers 401 without a token', async () => {
    expectError(await rename(theirs, null as never), 401, 'UNAUTHORIZED');
  });

  it('answers 403 to a caller with no grant in the area', async () => {
    const token = await gateway.tokenWithScopes([`logging:manage:${mine}`]);
    const result = await rename(theirs, token);
    expectError(result, 403, 'FORBIDDEN');
    expect(result.body.details).toEqual({ requiredScope: 'nodes:manage' });
  });

  it('answers 403 to a caller whose grants in the area never include the permission', async () => {
    const token = await gateway.tokenWithScopes([`nodes:view:${mine}`]);
    expectError(await rename(mine, token), 403, 'FORBIDDEN');
  });

  it('validates before it looks at the resource: 400 for a bad body on a resource not granted', async () => {
    const token = await gateway.tokenWithScopes([`nodes:manage:${mine}`]);
    expectValidationError(await rename(theirs, token, ''), ['name']);
  });

  it('answers 404 for a resource not granted once the request is valid', async () => {
    const token = await gateway.tokenWithScopes([`nodes:manage:${mine}`]);
    expectError(await rename(theirs, token), 404, 'NOT_FOUND');
  });

  it('answers 403 naming the resource scope when the caller sees the resource but may not change it', async () => {
    const token = await gateway.tokenWithScopes([`nodes:view:${mine}`, `nodes:manage:${theirs}`]);
    const result = await rename(mine, token);
    expectError(result, 403, 'FORBIDDEN');
    expect(result.body.details).toEqual({ requiredScope: `nodes:manage:${mine}` });
  });

  it('lets the granted resource be changed', async () => {
    const token = await gateway.tokenWithScopes([`nodes:manage:${mine}`]);
    expect((await rename(mine, token)).status).toBe(200);
  });

  it('matches the id whatever its letter case', async () => {
    const token = await gateway.tokenWithScopes([`nodes:view:${mine}`]);
    expect((await gateway.call('GET', `/api/nodes/${mine.toUpperCase()}`, { token })).status).toBe(200);
  });
});

describe('what a resource scope reaches', () => {
  it('every route below the resource: its uploads', async () => {
    const token = await gateway.tokenWithScopes([`nodes:manage:${mine}`]);
    const body = { path: `scoped-${crypto.randomBytes(3).toString('hex')}.txt`, totalBytes: 1 };
    const created = await gateway.call('POST', `/api/nodes/${mine}/files/uploads`, { token, body });
    expect(created.status).toBe(201);
    const refused = await gateway.call('POST', `/api/nodes/${theirs}/files/uploads`, { token, body });
    expectError(refused, 404, 'NOT_FOUND');
  });

  it('all permissions on the resource with <area>:*:<id>', async () => {
    const token = await gateway.tokenWithScopes([`nodes:*:${mine}`]);
    expect((await rename(mine, token)).status).toBe(200);
    expectError(await rename(theirs, token), 404, 'NOT_FOUND');
  });

  it('nothing in another area', async () => {
    const token = await gateway.tokenWithScopes([`nodes:*:${mine}`]);
    expectError(await gateway.call('GET', '/api/databases', { token }), 403, 'FORBIDDEN');
  });
});

describe('a resource the caller may not see', () => {
  it('is audited as a refused access, with the resource', async () => {
    const token = await gateway.tokenWithScopes([`nodes:view:${mine}`]);
    await gateway.call('GET', `/api/nodes/${theirs}`, { token });
    const find = async () =>
      (await auditEventsMatching(gateway, { action: 'auth.access.denied' })).find(
        (event) =>
          event.targetId === 'GET /api/nodes/:id' &&
          (event.metadata as { resourceId?: string }).resourceId === theirs,
      );
    await eventually(async () => (await find()) !== undefined, 'the access-denied audit event');
    expect((await find())?.metadata).toMatchObject({ scope: 'nodes:view', status: 404 });
  });
});

describe('groups holding resource scopes', () => {
  const createGroup = (scopes: string[]) =>
    gateway.call('POST', '/api/admin/groups', {
      body: { name: `scoped-${crypto.randomBytes(3).toString('hex')}`, scopes },
    });

  it('accept them beside area-wide ones, keeping the id in lower case', async () => {
    const result = await createGroup(['logging:view', `nodes:manage:${mine.toUpperCase()}`]);
    expect(result.status).toBe(201);
    expect(result.body.data.scopes).toEqual(['logging:view', `nodes:manage:${mine}`]);
  });

  it('accept an id that names no resource (yet): such a scope grants nothing', async () => {
    expect((await createGroup([`nodes:view:${crypto.randomUUID()}`])).status).toBe(201);
  });

  it.each([
    ['an unknown area', `weather:view:${crypto.randomUUID()}`],
    ['an unknown permission', `nodes:read:${crypto.randomUUID()}`],
    ['an area without resources', `audit:view:${crypto.randomUUID()}`],
    ['an id that is not a UUID', 'nodes:view:backup-1'],
    ['a fourth part', `nodes:view:${crypto.randomUUID()}:x`],
  ])('refuse %s, pointing at its index', async (_, scope) => {
    expectValidationError(await createGroup(['logging:view', scope]), ['scopes', 1]);
  });

  it('refuse the same forms when the scopes are replaced', async () => {
    const group = (await createGroup([])).body.data;
    const result = await gateway.call('PATCH', `/api/admin/groups/${group.id}/scopes`, {
      body: { scopes: ['nodes:view:backup-1'] },
    });
    expectValidationError(result, ['scopes', 0]);
  });

  it('take effect at once when a group is narrowed to one resource', async () => {
    const group = (await createGroup(['nodes:view'])).body.data;
    const user = await gateway.call('POST', '/api/admin/users', {
      body: { email: `narrowed-${crypto.randomBytes(3).toString('hex')}@test`, name: 'N', group: group.id },
    });
    const { token } = await issueToken(gateway.deps.db, {
      userId: user.body.data.id,
      kind: 'api',
      name: 'narrowed',
      expiresAt: null,
    });
    expect((await gateway.call('GET', `/api/nodes/${theirs}`, { token })).status).toBe(200);
    await gateway.call('PATCH', `/api/admin/groups/${group.id}/scopes`, {
      body: { scopes: [`nodes:view:${mine}`] },
    });
    expect((await gateway.call('GET', `/api/nodes/${theirs}`, { token })).status).toBe(404);
    expect((await gateway.call('GET', `/api/nodes/${mine}`, { token })).status).toBe(200);
  });
});
