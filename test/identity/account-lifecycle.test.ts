import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEventsMatching } from '../support/audit-events.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { codeFor, createPasswordUser, enrolTotp, passwordLogin, sessionTokenOf } from './helpers.js';

let gateway: TestGateway;
let noScopeToken: string;
const unknownId = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  gateway = await startTestGateway();
  noScopeToken = await gateway.tokenWithScopes([]);
});
afterAll(() => gateway.close());

const changePassword = (token: string | null, body: Record<string, unknown>) =>
  gateway.call('PUT', '/auth/me/password', { token, body });

describe('PUT /auth/me/password', () => {
  it('changes the password: the new one signs in, the old one no longer does', async () => {
    const user = await createPasswordUser(gateway);
    const token = await sessionTokenOf(gateway, user);
    const result = await changePassword(token, {
      currentPassword: user.password,
      newPassword: 'a brand new secret',
    });
    expect(result.status).toBe(200);
    expect((await passwordLogin(gateway, { ...user, password: 'a brand new secret' })).status).toBe(200);
    expectError(await passwordLogin(gateway, user), 401, 'UNAUTHORIZED');
  });

  it('revokes the other sessions and keeps the current one', async () => {
    const user = await createPasswordUser(gateway);
    const [current, other] = [await sessionTokenOf(gateway, user), await sessionTokenOf(gateway, user)];
    const result = await changePassword(current, {
      currentPassword: user.password,
      newPassword: 'another secret',
    });
    expect(result.body).toEqual({ revoked: 1 });
    expect((await gateway.call('GET', '/auth/me', { token: current })).status).toBe(200);
    expectError(await gateway.call('GET', '/auth/me', { token: other }), 401, 'UNAUTHORIZED');
  });

  it('is audited without any password', async () => {
    const user = await createPasswordUser(gateway);
    const token = await sessionTokenOf(gateway, user);
    await changePassword(token, { currentPassword: user.password, newPassword: 'audited secret' });
    const events = await auditEventsMatching(gateway, { action: 'auth.password.changed', actorId: user.id });
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events)).not.toContain('audited secret');
    expect(JSON.stringify(events)).not.toContain(user.password);
  });

  it('refuses a wrong current password on that field and counts a failed login', async () => {
    const user = await createPasswordUser(gateway);
    const token = await sessionTokenOf(gateway, user);
    const result = await changePassword(token, { currentPassword: 'not it', newPassword: 'whatever secret' });
    expectValidationError(result, ['currentPassword']);
    expect((await passwordLogin(gateway, user)).status).toBe(200);
    const failures = await auditEventsMatching(gateway, { action: 'auth.login.failed', actorId: user.id });
    expect(failures.map((event) => event.metadata)).toEqual([{ email: user.email, step: 'password_change' }]);
  });

  it('refuses a new password shorter than 8 characters', async () => {
    const user = await createPasswordUser(gateway);
    const token = await sessionTokenOf(gateway, user);
    expectValidationError(
      await changePassword(token, { currentPassword: user.password, newPassword: 'short' }),
      ['newPassword'],
    );
  });

  it('answers 422 PASSWORD_NOT_SET for an account without a password', async () => {
    const token = await gateway.tokenWithScopes([]);
    const result = await changePassword(token, { currentPassword: 'x', newPassword: 'long enough' });
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toBe('PASSWORD_NOT_SET');
  });

  it('needs a signed-in caller', async () => {
    expectError(await changePassword(null, {}), 401, 'UNAUTHORIZED');
  });
});

describe('PUT /api/admin/users/{id}/password', () => {
  it("signs the user's browsers out", async () => {
    const user = await createPasswordUser(gateway);
    const session = await sessionTokenOf(gateway, user);
    await gateway.call('PUT', `/api/admin/users/${user.id}/password`, {
      body: { password: 'set by the admin' },
    });
    expectError(await gateway.call('GET', '/auth/me', { token: session }), 401, 'UNAUTHORIZED');
  });
});

describe('DELETE /api/admin/users/{id}', () => {
  it('deletes the user; their sessions and API tokens stop working at once', async () => {
    const user = await createPasswordUser(gateway);
    const session = await sessionTokenOf(gateway, user);
    const api = (await gateway.call('POST', '/auth/tokens', { token: session, body: { name: 'ci' } })).body
      .data.token;
    expect((await gateway.call('GET', '/auth/me', { token: api })).status).toBe(200);
    expect((await gateway.call('DELETE', `/api/admin/users/${user.id}`)).body).toEqual({ success: true });
    expectError(await gateway.call('GET', '/auth/me', { token: session }), 401, 'UNAUTHORIZED');
    expectError(await gateway.call('GET', '/auth/me', { token: api }), 401, 'UNAUTHORIZED');
    expectError(await gateway.call('GET', `/api/admin/users/${user.id}`), 404, 'NOT_FOUND');
  });

  it("keeps the user's audit history, naming the email they had", async () => {
    const user = await createPasswordUser(gateway);
    await sessionTokenOf(gateway, user);
    await gateway.call('DELETE', `/api/admin/users/${user.id}`);
    const history = await auditEventsMatching(gateway, { actorId: user.id });
    expect(history.map((event) => [event.action, event.actorEmail])).toContainEqual([
      'auth.login.succeeded',
      user.email,
    ]);
    const [deletion] = await auditEventsMatching(gateway, {
      action: 'users.user.deleted',
      targetId: user.id,
    });
    expect(deletion?.metadata).toMatchObject({ email: user.email, groupName: user.group });
    expect((await gateway.call('GET', '/api/audit/verify')).body.data).toMatchObject({ valid: true });
  });

  it('frees the email for a new account', async () => {
    const user = await createPasswordUser(gateway);
    await gateway.call('DELETE', `/api/admin/users/${user.id}`);
    const again = await gateway.call('POST', '/api/admin/users', {
      body: { email: user.email, name: 'Again', group: user.group },
    });
    expect(again.status).toBe(201);
    expect(again.body.data.id).not.toBe(user.id);
  });

  it('refuses to let an admin delete their own account', async () => {
    expectValidationError(await gateway.call('DELETE', `/api/admin/users/${gateway.adminUserId}`), ['id']);
  });

  it('answers 404 for an unknown user and 400 for an id that is not a uuid', async () => {
    expectError(await gateway.call('DELETE', `/api/admin/users/${unknownId}`), 404, 'NOT_FOUND');
    expectValidationError(await gateway.call('DELETE', '/api/admin/users/nope'), ['id']);
  });

  it('checks authentication, then admin:users', async () => {
    expectError(
      await gateway.call('DELETE', `/api/admin/users/${unknownId}`, { token: null }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await gateway.call('DELETE', '/api/admin/users/nope', { token: noScopeToken }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('DELETE /api/admin/users/{id}/totp', () => {
  it("resets a user's enrolment: their next login asks for no code, and it is audited", async () => {
    const user = await createPasswordUser(gateway);
    await enrolTotp(gateway, await sessionTokenOf(gateway, user));
    const result = await gateway.call('DELETE', `/api/admin/users/${user.id}/totp`);
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({ id: user.id, totpEnabled: false });
    expect((await passwordLogin(gateway, user)).body.data.token).toMatch(/^igw_/);
    const [reset] = await auditEventsMatching(gateway, {
      action: 'users.user.totp_reset',
      targetId: user.id,
    });
    expect(reset?.actorId).toBe(gateway.adminUserId);
  });

  it('shows whether a user has two-factor sign-in in the user record', async () => {
    const user = await createPasswordUser(gateway);
    expect((await gateway.call('GET', `/api/admin/users/${user.id}`)).body.data.totpEnabled).toBe(false);
    await enrolTotp(gateway, await sessionTokenOf(gateway, user));
    expect((await gateway.call('GET', `/api/admin/users/${user.id}`)).body.data.totpEnabled).toBe(true);
  });

  it('answers 409 TOTP_NOT_ENABLED for a user without one, 404 for an unknown user', async () => {
    const user = await createPasswordUser(gateway);
    const result = await gateway.call('DELETE', `/api/admin/users/${user.id}/totp`);
    expectError(result, 409, 'CONFLICT');
    expect(result.body.details.reason).toBe('TOTP_NOT_ENABLED');
    expectError(await gateway.call('DELETE', `/api/admin/users/${unknownId}/totp`), 404, 'NOT_FOUND');
  });

  it('needs admin:users', async () => {
    expectError(
      await gateway.call('DELETE', `/api/admin/users/${unknownId}/totp`, { token: noScopeToken }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('PATCH /api/admin/groups/{id}', () => {
  async function newGroup(name: string) {
    return (await gateway.call('POST', '/api/admin/groups', { body: { name, scopes: ['audit:view'] } })).body
      .data;
  }

  it('renames a group; its members see the new name at once', async () => {
    const user = await createPasswordUser(gateway);
    const token = await sessionTokenOf(gateway, user);
    const group = (await gateway.call('GET', '/api/admin/groups')).body.data.find(
      (candidate: { name: string }) => candidate.name === user.group,
    );
    const result = await gateway.call('PATCH', `/api/admin/groups/${group.id}`, {
      body: { name: ' renamed ' },
    });
    expect(result.body.data).toMatchObject({ id: group.id, name: 'renamed', userCount: 1 });
    expect((await gateway.call('GET', '/auth/me', { token })).body.data.groupName).toBe('renamed');
  });

  it('records the rename with the old and the new name', async () => {
    const group = await newGroup('before-rename');
    await gateway.call('PATCH', `/api/admin/groups/${group.id}`, { body: { name: 'after-rename' } });
    const [event] = await auditEventsMatching(gateway, { action: 'users.group.renamed', targetId: group.id });
    expect(event?.metadata).toEqual({ from: 'before-rename', to: 'after-rename' });
  });

  it('requires a second factor of the members, audited', async () => {
    const group = await newGroup('strict');
    const result = await gateway.call('PATCH', `/api/admin/groups/${group.id}`, {
      body: { requireMfa: true },
    });
    expect(result.body.data).toMatchObject({ name: 'strict', requireMfa: true });
    const [event] = await auditEventsMatching(gateway, {
      action: 'users.group.mfa_requirement_changed',
      targetId: group.id,
    });
    expect(event?.metadata).toEqual({ name: 'strict', requireMfa: true });
  });

  it('answers 409 GROUP_NAME_TAKEN for a name another group has', async () => {
    const group = await newGroup('taken-a');
    await newGroup('taken-b');
    const result = await gateway.call('PATCH', `/api/admin/groups/${group.id}`, {
      body: { name: 'taken-b' },
    });
    expectError(result, 409, 'CONFLICT');
    expect(result.body.details.reason).toBe('GROUP_NAME_TAKEN');
  });

  it('rejects an empty change, a blank name and a name over 255 characters', async () => {
    const group = await newGroup('validated');
    const url = `/api/admin/groups/${group.id}`;
    expectError(await gateway.call('PATCH', url, { body: {} }), 400, 'VALIDATION_ERROR');
    expectValidationError(await gateway.call('PATCH', url, { body: { name: '   ' } }), ['name']);
    expectValidationError(await gateway.call('PATCH', url, { body: { name: 'n'.repeat(256) } }), ['name']);
    expectValidationError(await gateway.call('PATCH', url, { body: { requireMfa: 'yes' } }), ['requireMfa']);
  });

  it('answers 404 for an unknown group, and checks 401 then 403 first', async () => {
    const url = `/api/admin/groups/${unknownId}`;
    expectError(await gateway.call('PATCH', url, { body: { name: 'x' } }), 404, 'NOT_FOUND');
    expectError(await gateway.call('PATCH', url, { token: null, body: {} }), 401, 'UNAUTHORIZED');
    expectError(await gateway.call('PATCH', url, { token: noScopeToken, body: {} }), 403, 'FORBIDDEN');
  });
});

describe('DELETE /api/admin/groups/{id}', () => {
  it('deletes a group without members, audited', async () => {
    const group = (await gateway.call('POST', '/api/admin/groups', { body: { name: 'empty', scopes: [] } }))
      .body.data;
    expect((await gateway.call('DELETE', `/api/admin/groups/${group.id}`)).body).toEqual({ success: true });
    const names = (await gateway.call('GET', '/api/admin/groups')).body.data.map(
      (g: { name: string }) => g.name,
    );
    expect(names).not.toContain('empty');
    const [event] = await auditEventsMatching(gateway, { action: 'users.group.deleted', targetId: group.id });
    expect(event?.metadata).toEqual({ name: 'empty', scopes: [] });
  });

  it('answers 409 GROUP_HAS_MEMBERS while users are in it, and keeps it', async () => {
    const user = await createPasswordUser(gateway);
    const group = (await gateway.call('GET', '/api/admin/groups')).body.data.find(
      (candidate: { name: string }) => candidate.name === user.group,
    );
    const result = await gateway.call('DELETE', `/api/admin/groups/${group.id}`);
    expectError(result, 409, 'CONFLICT');
    expect(result.body.details).toMatchObject({ reason: 'GROUP_HAS_MEMBERS', members: 1 });
    expect((await gateway.call('GET', `/api/admin/users/${user.id}`)).body.data.groupName).toBe(user.group);
  });

  it('answers 404 for an unknown group and 403 without admin:users', async () => {
    expectError(await gateway.call('DELETE', `/api/admin/groups/${unknownId}`), 404, 'NOT_FOUND');
    expectError(
      await gateway.call('DELETE', `/api/admin/groups/${unknownId}`, { token: noScopeToken }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('a code of one user', () => {
  it('does not complete the login of another', async () => {
    const [alice, bob] = [await createPasswordUser(gateway), await createPasswordUser(gateway)];
    const { secret } = await enrolTotp(gateway, await sessionTokenOf(gateway, alice));
    await enrolTotp(gateway, await sessionTokenOf(gateway, bob));
    const challengeToken = (await passwordLogin(gateway, bob)).body.data.challengeToken;
    const result = await gateway.call('POST', '/auth/login/totp', {
      token: null,
      body: { challengeToken, code: await codeFor(secret, 1) },
    });
    expectError(result, 401, 'UNAUTHORIZED');
  });
});
