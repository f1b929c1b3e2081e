import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEventsMatching } from '../support/audit-events.js';
import { eventually } from '../support/eventually.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

let gateway: TestGateway;
let noScopeToken: string;
let viewerId: string;
const unknownId = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  gateway = await startTestGateway();
  noScopeToken = await gateway.tokenWithScopes([]);
  await gateway.call('POST', '/api/admin/groups', { body: { name: 'viewers', scopes: ['logging:view'] } });
  const viewer = await gateway.call('POST', '/api/admin/users', {
    body: { email: 'Viewer@Example.org', name: '  Vera Viewer ', group: 'viewers' },
  });
  viewerId = viewer.body.data.id;
});
afterAll(() => gateway.close());

describe('POST /api/admin/users', () => {
  it('creates a user with a lowercased email and a trimmed name', async () => {
    const result = await gateway.call('GET', `/api/admin/users/${viewerId}`);
    expect(result.body.data).toMatchObject({
      email: 'viewer@example.org',
      name: 'Vera Viewer',
      groupName: 'viewers',
      scopes: ['logging:view'],
      disabled: false,
      hasPassword: false,
    });
  });

  it('answers 409 CONFLICT for an email that exists', async () => {
    const result = await gateway.call('POST', '/api/admin/users', {
      body: { email: 'viewer@example.org', name: 'Again', group: 'viewers' },
    });
    expectError(result, 409, 'CONFLICT');
  });

  it('answers 400 for an unknown group, naming the field', async () => {
    const result = await gateway.call('POST', '/api/admin/users', {
      body: { email: 'a@b', name: 'A', group: 'nope' },
    });
    expectValidationError(result, ['group']);
  });

  it('answers 400 for a short password and never stores it', async () => {
    const result = await gateway.call('POST', '/api/admin/users', {
      body: { email: 'p@b', name: 'P', group: 'viewers', password: 'short' },
    });
    expectValidationError(result, ['password']);
  });

  it('needs admin:users (403 for a token without it)', async () => {
    const result = await gateway.call('POST', '/api/admin/users', {
      token: noScopeToken,
      body: { email: 'x@y', name: 'X', group: 'viewers' },
    });
    expectError(result, 403, 'FORBIDDEN');
  });
});

describe('GET /api/admin/users', () => {
  it('lists users with pagination', async () => {
    const result = await gateway.call('GET', '/api/admin/users', { query: { limit: 1, page: 1 } });
    expect(result.status).toBe(200);
    expect(result.body.data).toHaveLength(1);
    expect(result.body.pagination).toMatchObject({ page: 1, limit: 1 });
    expect(result.body.pagination.total).toBeGreaterThanOrEqual(2);
  });

  it('filters by group and by text', async () => {
    const byGroup = await gateway.call('GET', '/api/admin/users', { query: { groupName: 'viewers' } });
    expect(byGroup.body.data.map((u: { email: string }) => u.email)).toEqual(['viewer@example.org']);
    const byText = await gateway.call('GET', '/api/admin/users', { query: { q: 'vera' } });
    expect(byText.body.data).toHaveLength(1);
  });

  it('matches % and _ in the search text literally, not as wildcards', async () => {
    const byWildcard = await gateway.call('GET', '/api/admin/users', { query: { q: 'v_ra' } });
    expect(byWildcard.body.data).toEqual([]);
    const byPercent = await gateway.call('GET', '/api/admin/users', { query: { q: '%' } });
    expect(byPercent.body.data).toEqual([]);
  });

  it('rejects a page size above 100', async () => {
    expectValidationError(await gateway.call('GET', '/api/admin/users', { query: { limit: 101 } }), [
      'limit',
    ]);
  });

  it('answers 401 without a token', async () => {
    expectError(await gateway.call('GET', '/api/admin/users', { token: null }), 401, 'UNAUTHORIZED');
  });
});

describe('GET /api/admin/users/{id}', () => {
  it('answers 404 for an unknown id', async () => {
    expectError(await gateway.call('GET', `/api/admin/users/${unknownId}`), 404, 'NOT_FOUND');
  });
});

describe('PATCH /api/admin/users/{id}/name', () => {
  it('renames the account and answers the local user record', async () => {
    const result = await gateway.call('PATCH', `/api/admin/users/${viewerId}/name`, {
      body: { name: '  Vera V. ' },
    });
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({ id: viewerId, name: 'Vera V.', groupName: 'viewers' });
  });

  it("shows the new name in the renamed user's own GET /auth/me at once", async () => {
    const token = await gateway.tokenWithScopes([]);
    const me = (await gateway.call('GET', '/auth/me', { token })).body.data;
    await gateway.call('PATCH', `/api/admin/users/${me.id}/name`, { body: { name: 'Renamed Now' } });
    expect((await gateway.call('GET', '/auth/me', { token })).body.data.name).toBe('Renamed Now');
  });

  it('records the rename in the audit trail', async () => {
    const events = await auditEventsMatching(gateway, { action: 'users.user.renamed' });
    expect(events.some((event) => event.targetId === viewerId)).toBe(true);
  });

  it('rejects a blank name', async () => {
    expectValidationError(
      await gateway.call('PATCH', `/api/admin/users/${viewerId}/name`, { body: { name: '   ' } }),
      ['name'],
    );
  });

  it('rejects an empty name and a name over 255 characters', async () => {
    const url = `/api/admin/users/${viewerId}/name`;
    expectValidationError(await gateway.call('PATCH', url, { body: { name: '' } }), ['name']);
    expectValidationError(await gateway.call('PATCH', url, { body: { name: 'n'.repeat(256) } }), ['name']);
  });

  it('accepts a name of exactly 255 characters', async () => {
    const result = await gateway.call('PATCH', `/api/admin/users/${viewerId}/name`, {
      body: { name: 'n'.repeat(255) },
    });
    expect(result.status).toBe(200);
  });

  it('requires the name field', async () => {
    expectValidationError(await gateway.call('PATCH', `/api/admin/users/${viewerId}/name`, { body: {} }), [
      'name',
    ]);
  });

  it('rejects a name that is not a string', async () => {
    expectValidationError(
      await gateway.call('PATCH', `/api/admin/users/${viewerId}/name`, { body: { name: 42 } }),
      ['name'],
    );
  });

  it('answers 404 for an unknown user', async () => {
    expectError(
      await gateway.call('PATCH', `/api/admin/users/${unknownId}/name`, { body: { name: 'x' } }),
      404,
      'NOT_FOUND',
    );
  });

  it('records nothing when the user does not exist', async () => {
    await gateway.call('PATCH', `/api/admin/users/${unknownId}/name`, { body: { name: 'Nobody' } });
    expect(await auditEventsMatching(gateway, { targetId: unknownId })).toEqual([]);
  });

  it('checks permission before validation (403 before 400)', async () => {
    const result = await gateway.call('PATCH', `/api/admin/users/${viewerId}/name`, {
      token: noScopeToken,
      body: {},
    });
    expectError(result, 403, 'FORBIDDEN');
  });

  it('checks authentication first (401)', async () => {
    const result = await gateway.call('PATCH', `/api/admin/users/${viewerId}/name`, {
      token: null,
      body: { name: 'x' },
    });
    expectError(result, 401, 'UNAUTHORIZED');
  });
});

describe('group, disable and password', () => {
  it('moving a user to another group changes its scopes at once', async () => {
    const token = await gateway.tokenWithScopes([]);
    const me = await gateway.call('GET', '/auth/me', { token });
    expectError(await gateway.call('GET', '/api/admin/users', { token }), 403, 'FORBIDDEN');
    await gateway.call('PATCH', `/api/admin/users/${me.body.data.id}/group`, { body: { group: 'admins' } });
    expect((await gateway.call('GET', '/api/admin/users', { token })).status).toBe(200);
  });

  it('disabling a user stops its tokens at once; enabling brings them back', async () => {
    const token = await gateway.tokenWithScopes(['logging:view']);
    const me = await gateway.call('GET', '/auth/me', { token });
    const url = `/api/admin/users/${me.body.data.id}/disabled`;
    expect((await gateway.call('PATCH', url, { body: { disabled: true } })).body.data.disabled).toBe(true);
    expectError(await gateway.call('GET', '/auth/me', { token }), 401, 'UNAUTHORIZED');
    await gateway.call('PATCH', url, { body: { disabled: false } });
    expect((await gateway.call('GET', '/auth/me', { token })).status).toBe(200);
  });

  it('refuses to let an admin disable their own account', async () => {
    const result = await gateway.call('PATCH', `/api/admin/users/${gateway.adminUserId}/disabled`, {
      body: { disabled: true },
    });
    expectValidationError(result, ['id']);
  });

  it('a password set by an admin allows login', async () => {
    await gateway.call('PUT', `/api/admin/users/${viewerId}/password`, {
      body: { password: 'a long enough secret' },
    });
    const login = await gateway.call('POST', '/auth/login', {
      token: null,
      body: { email: 'viewer@example.org', password: 'a long enough secret' },
    });
    expect(login.status).toBe(200);
  });
});

describe('groups', () => {
  it('lists groups with their scopes and user counts', async () => {
    const result = await gateway.call('GET', '/api/admin/groups');
    const viewers = result.body.data.find((g: { name: string }) => g.name === 'viewers');
    expect(viewers).toMatchObject({ scopes: ['logging:view'], userCount: 1 });
  });

  it('creates a group with an empty scope list', async () => {
    const result = await gateway.call('POST', '/api/admin/groups', { body: { name: 'nobody', scopes: [] } });
    expect(result.status).toBe(201);
    expect(result.body.data).toMatchObject({ name: 'nobody', scopes: [], userCount: 0 });
  });

  it('answers 409 for a duplicate group name', async () => {
    expectError(
      await gateway.call('POST', '/api/admin/groups', { body: { name: 'viewers', scopes: [] } }),
      409,
      'CONFLICT',
    );
  });

  it('gives one of two simultaneous creations of a group name 201 and the other 409', async () => {
    const create = () => gateway.call('POST', '/api/admin/groups', { body: { name: 'racers', scopes: [] } });
    const statuses = (await Promise.all([create(), create()])).map((result) => result.status);
    expect(statuses.sort()).toEqual([201, 409]);
  });

  it('rejects a malformed scope, pointing at its index', async () => {
    const result = await gateway.call('POST', '/api/admin/groups', {
      body: { name: 'bad', scopes: ['logging:view', 'Not A Scope'] },
    });
    expectValidationError(result, ['scopes', 1]);
  });

  it('replaces a group’s scopes and the change applies to its members at once', async () => {
    const token = await gateway.tokenWithScopes([]);
    const me = await gateway.call('GET', '/auth/me', { token });
    const groups = await gateway.call('GET', '/api/admin/groups');
    const group = groups.body.data.find((g: { name: string }) => g.name === me.body.data.groupName);
    await gateway.call('PATCH', `/api/admin/groups/${group.id}/scopes`, {
      body: { scopes: ['admin:users'] },
    });
    expect((await gateway.call('GET', '/auth/me', { token })).body.data.scopes).toEqual(['admin:users']);
  });

  it('answers the changed group with its new scopes and member count', async () => {
    const token = await gateway.tokenWithScopes([]);
    const me = await gateway.call('GET', '/auth/me', { token });
    const groups = await gateway.call('GET', '/api/admin/groups');
    const group = groups.body.data.find((g: { name: string }) => g.name === me.body.data.groupName);
    const result = await gateway.call('PATCH', `/api/admin/groups/${group.id}/scopes`, {
      body: { scopes: ['logging:view'] },
    });
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({
      id: group.id,
      name: group.name,
      scopes: ['logging:view'],
      userCount: 1,
    });
  });

  it('answers 404 for scopes of an unknown group', async () => {
    const result = await gateway.call('PATCH', `/api/admin/groups/${crypto.randomUUID()}/scopes`, {
      body: { scopes: [] },
    });
    expectError(result, 404, 'NOT_FOUND');
  });
});

describe('admin scope use', () => {
  it('is audited for reads, naming the route and the token', async () => {
    await gateway.call('GET', '/api/admin/groups');
    const findRead = async () =>
      (await auditEventsMatching(gateway, { action: 'auth.admin_scope.used' })).find(
        (event) => event.targetId === 'GET /api/admin/groups',
      );
    // The event is written once the answer has been sent.
    await eventually(async () => (await findRead()) !== undefined, 'the admin-scope audit event');
    const read = await findRead();
    expect(read?.metadata).toMatchObject({ scope: 'admin:users', tokenKind: 'api', status: 200 });
  });
});

describe('refused scopes', () => {
  it('are audited with the route and the scope that was missing', async () => {
    const token = await gateway.tokenWithScopes([]);
    await gateway.call('GET', '/api/admin/users', { token });
    const findDenial = async () =>
      (await auditEventsMatching(gateway, { action: 'auth.access.denied' })).find(
        (event) => event.targetId === 'GET /api/admin/users',
      );
    await eventually(async () => (await findDenial()) !== undefined, 'the access-denied audit event');
    expect((await findDenial())?.metadata).toMatchObject({ scope: 'admin:users', status: 403 });
  });
});
