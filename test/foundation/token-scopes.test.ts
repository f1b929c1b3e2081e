import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEventsMatching } from '../support/audit-events.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const DATABASE = '3f1c2a5e-8d4b-4c1a-9e2f-0a1b2c3d4e5f';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.close());

/** A user of a group of their own holding `scopes`, with an API token of all of them. */
async function userWith(scopes: string[]) {
  const token = await gateway.tokenWithScopes(scopes);
  const { groupName } = (await gateway.call('GET', '/auth/me', { token })).body.data;
  const groups = (await gateway.call('GET', '/api/admin/groups')).body.data as { id: string; name: string }[];
  const groupId = groups.find((group) => group.name === groupName)!.id;
  return {
    token,
    /** A new token of this user, made through the API with `token`. */
    createToken: (body: Record<string, unknown>, as = token) =>
      gateway.call('POST', '/auth/tokens', { token: as, body: { name: 'narrow', ...body } }),
    /** Replaces the scopes of the user's group, as an admin would. */
    setGroupScopes: async (next: string[]) => {
      const changed = await gateway.call('PATCH', `/api/admin/groups/${groupId}/scopes`, {
        body: { scopes: next },
      });
      expect(changed.status).toBe(200);
    },
  };
}

const scopesOf = async (token: string) =>
  (await gateway.call('GET', '/auth/me', { token })).body.data.scopes as string[];

describe('an API token narrowed to some of its user’s scopes', () => {
  it('carries only those: GET /auth/me answers them, and a route outside them is 403', async () => {
    const user = await userWith(['logging:*', 'audit:view']);
    const created = await user.createToken({ scopes: ['logging:view'] });
    expect(created.status).toBe(201);
    expect(created.body.data.scopes).toEqual(['logging:view']);
    const token = created.body.data.token as string;
    expect(await scopesOf(token)).toEqual(['logging:view']);
    expect((await gateway.call('GET', '/api/logging/environments', { token })).status).toBe(200);
    expectError(await gateway.call('GET', '/api/audit/events', { token }), 403, 'FORBIDDEN');
    expect((await gateway.call('GET', '/api/audit/events', { token: user.token })).status).toBe(200);
  });

  it('may name one resource under a wildcard the user holds', async () => {
    const user = await userWith(['databases:*']);
    const created = await user.createToken({ scopes: [`databases:read:${DATABASE.toUpperCase()}`] });
    expect(created.body.data.scopes).toEqual([`databases:read:${DATABASE}`]);
    expect(await scopesOf(created.body.data.token)).toEqual([`databases:read:${DATABASE}`]);
  });

  it('with * carries all of the user’s scopes, whatever they become', async () => {
    const user = await userWith(['*']);
    const token = (await user.createToken({ scopes: ['*'] })).body.data.token as string;
    expect(await scopesOf(token)).toEqual(['*']);
    await user.setGroupScopes(['logging:view', `nodes:manage:${DATABASE}`]);
    expect(await scopesOf(token)).toEqual(['logging:view', `nodes:manage:${DATABASE}`]);
  });

  it('with no scopes at all signs in and may do nothing else', async () => {
    const user = await userWith(['logging:view']);
    const created = await user.createToken({ scopes: [] });
    const token = created.body.data.token as string;
    expect(await scopesOf(token)).toEqual([]);
    expectError(await gateway.call('GET', '/api/logging/environments', { token }), 403, 'FORBIDDEN');
  });

  it('is listed with its scopes; a token made without them is listed with null', async () => {
    const user = await userWith(['logging:*']);
    await user.createToken({ name: 'narrowed', scopes: ['logging:view'] });
    const listed = (await gateway.call('GET', '/auth/tokens', { token: user.token })).body.data as {
      name: string;
      scopes: string[] | null;
    }[];
    expect(listed.find((token) => token.name === 'narrowed')?.scopes).toEqual(['logging:view']);
    expect(listed.find((token) => token.name === 'test')?.scopes).toBeNull();
  });

  it('is audited with its scopes', async () => {
    const user = await userWith(['logging:*']);
    const created = await user.createToken({ scopes: ['logging:manage'] });
    const [event] = await auditEventsMatching(gateway, {
      action: 'auth.token.created',
      targetId: created.body.data.id,
    });
    expect(event?.metadata).toMatchObject({ scopes: ['logging:manage'] });
  });
});

describe('the scopes asked for a new token', () => {
  it('are refused with 400 at the index of one that is not a scope, and nothing is made', async () => {
    const user = await userWith(['logging:*']);
    expectValidationError(await user.createToken({ name: 'bad', scopes: ['logging:view', 'logging:fly'] }), [
      'scopes',
      1,
    ]);
    const listed = (await gateway.call('GET', '/auth/tokens', { token: user.token })).body.data;
    expect(listed.map((token: { name: string }) => token.name)).not.toContain('bad');
  });

  it('are refused with 403 naming each one the user does not hold, and nothing is made', async () => {
    const user = await userWith(['logging:view', `databases:read:${DATABASE}`]);
    const result = await user.createToken({
      name: 'wider',
      scopes: ['logging:view', 'logging:manage', `databases:write:${DATABASE}`],
    });
    expectError(result, 403, 'FORBIDDEN');
    expect(result.body.details).toMatchObject({
      reason: 'SCOPE_NOT_HELD',
      scopes: ['logging:manage', `databases:write:${DATABASE}`],
    });
    const listed = (await gateway.call('GET', '/auth/tokens', { token: user.token })).body.data;
    expect(listed.map((token: { name: string }) => token.name)).not.toContain('wider');
  });

  it('may not reach beyond the token that asks: a narrowed token cannot make a wider one', async () => {
    const user = await userWith(['logging:*']);
    const narrowed = (await user.createToken({ scopes: ['logging:view'] })).body.data.token as string;
    expectError(await user.createToken({ scopes: ['logging:manage'] }, narrowed), 403, 'FORBIDDEN');
    const madeWithout = await user.createToken({}, narrowed);
    expect(madeWithout.body.data.scopes).toEqual(['logging:view']);
    expect(await scopesOf(madeWithout.body.data.token)).toEqual(['logging:view']);
  });
});

describe('a change of the user’s scopes', () => {
  it('takes a lost scope from every token at once', async () => {
    const user = await userWith(['logging:*', 'audit:view']);
    const narrowed = (await user.createToken({ scopes: ['logging:manage', 'audit:view'] })).body.data
      .token as string;
    expect((await gateway.call('GET', '/api/audit/events', { token: narrowed })).status).toBe(200);
    await user.setGroupScopes(['logging:view']);
    expect(await scopesOf(narrowed)).toEqual(['logging:view']);
    expect(await scopesOf(user.token)).toEqual(['logging:view']);
    expectError(await gateway.call('GET', '/api/audit/events', { token: narrowed }), 403, 'FORBIDDEN');
  });

  it('gives a new scope to tokens of all the user’s scopes, not to narrowed ones', async () => {
    const user = await userWith(['logging:view']);
    const narrowed = (await user.createToken({ scopes: ['logging:view'] })).body.data.token as string;
    await user.setGroupScopes(['logging:view', 'audit:view']);
    expect(await scopesOf(narrowed)).toEqual(['logging:view']);
    expect(await scopesOf(user.token)).toEqual(['logging:view', 'audit:view']);
  });
});
