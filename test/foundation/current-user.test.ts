import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.close());

describe('GET /auth/me', () => {
  it('answers the authenticated user with id, email, name, groupName and scopes', async () => {
    const result = await gateway.call('GET', '/auth/me');
    expect(result.status).toBe(200);
    expect(result.body.data).toEqual({
      id: gateway.adminUserId,
      email: 'admin@test',
      name: 'admin',
      groupName: 'admins',
      scopes: ['*'],
    });
  });

  it('refuses a request without a token with 401 UNAUTHORIZED', async () => {
    expectError(await gateway.call('GET', '/auth/me', { token: null }), 401, 'UNAUTHORIZED');
  });
});
