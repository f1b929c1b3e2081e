import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/raw.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { tarGz } from './archives.js';
import { auditActions, createProject, deploy, deployOk } from './helpers.js';

let gateway: TestGateway;
let site: Buffer;

beforeAll(async () => {
  gateway = await startTestGateway();
  site = await tarGz({ 'index.html': 'from CI' });
});
afterAll(() => gateway.close());

const tokensOf = (projectId: string) => `/api/pages/${projectId}/deploy-tokens`;

async function issue(projectId: string, body: Record<string, unknown> = { name: 'ci' }, token?: string) {
  const result = await gateway.call('POST', tokensOf(projectId), { body, ...(token ? { token } : {}) });
  expect(result.status, result.text).toBe(201);
  return result.body.data as { id: string; token: string; name: string };
}

describe('creating, listing and revoking deploy tokens', () => {
  it('answers the secret once, with its own prefix, and keeps only its hash', async () => {
    const project = await createProject(gateway);
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const result = await gateway.call('POST', tokensOf(project.id), { body: { name: ' ci ', expiresAt } });
    expect(result.status).toBe(201);
    const issued = result.body.data;
    expect(issued).toMatchObject({
      projectId: project.id,
      name: 'ci',
      createdBy: 'admin@test',
      expiresAt,
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(issued.token).toMatch(/^igp_[A-Za-z0-9_-]{43}$/);
    const stored = await queryRows<{ token_hash: string }>(
      gateway.deps.db,
      sql`select token_hash from pages_deploy_tokens where id = ${issued.id}`,
    );
    expect(stored[0]!.token_hash).toBe(crypto.createHash('sha256').update(issued.token).digest('hex'));
    const listed = await gateway.call('GET', tokensOf(project.id));
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0].token).toBeUndefined();
    expect(JSON.stringify(listed.body)).not.toContain(issued.token);
    expect(await auditActions(gateway, issued.id)).toEqual(['pages.deploy_token.created']);
  });

  it('lists live or revoked tokens on request', async () => {
    const project = await createProject(gateway);
    const kept = await issue(project.id, { name: 'kept' });
    const gone = await issue(project.id, { name: 'gone' });
    await gateway.call('DELETE', `${tokensOf(project.id)}/${gone.id}`);
    const live = await gateway.call('GET', tokensOf(project.id), { query: { revoked: false } });
    expect(live.body.data.map((token: { id: string }) => token.id)).toEqual([kept.id]);
    const revoked = await gateway.call('GET', tokensOf(project.id), { query: { revoked: true } });
    expect(revoked.body.data.map((token: { id: string }) => token.id)).toEqual([gone.id]);
  });

  it('revokes a token, audited; revoking it again is 409', async () => {
    const project = await createProject(gateway);
    const issued = await issue(project.id);
    const url = `${tokensOf(project.id)}/${issued.id}`;
    expect((await gateway.call('DELETE', url)).body).toEqual({ success: true });
    const again = await gateway.call('DELETE', url);
    expectError(again, 409, 'CONFLICT');
    expect(again.body.details.reason).toBe('DEPLOY_TOKEN_REVOKED');
    expect(await auditActions(gateway, issued.id)).toEqual([
      'pages.deploy_token.created',
      'pages.deploy_token.revoked',
    ]);
  });

  it.each([
    [{ name: '' }, ['name']],
    [{ name: '   ' }, ['name']],
    [{ name: 'x'.repeat(256) }, ['name']],
    [{}, ['name']],
    [{ name: 'ci', expiresAt: 'tomorrow' }, ['expiresAt']],
    [{ name: 'ci', expiresAt: '2020-01-01T00:00:00Z' }, ['expiresAt']],
  ])('refuses %j with 400', async (body, path) => {
    const project = await createProject(gateway);
    expectValidationError(await gateway.call('POST', tokensOf(project.id), { body }), path);
  });

  it('answers 401, 403, 404 on the token routes', async () => {
    const project = await createProject(gateway);
    const issued = await issue(project.id);
    const viewer = await gateway.tokenWithScopes(['pages:view']);
    const one = `${tokensOf(project.id)}/${issued.id}`;
    for (const [method, url] of [
      ['GET', tokensOf(project.id)],
      ['POST', tokensOf(project.id)],
      ['DELETE', one],
    ] as const) {
      expectError(await gateway.call(method, url, { token: null, body: { name: 'x' } }), 401, 'UNAUTHORIZED');
    }
    expect((await gateway.call('GET', tokensOf(project.id), { token: viewer })).status).toBe(200);
    expectError(
      await gateway.call('POST', tokensOf(project.id), { token: viewer, body: { name: 'x' } }),
      403,
      'FORBIDDEN',
    );
    expectError(await gateway.call('DELETE', one, { token: viewer }), 403, 'FORBIDDEN');
    expectError(await gateway.call('GET', tokensOf(crypto.randomUUID())), 404, 'NOT_FOUND');
    expectError(
      await gateway.call('POST', tokensOf(crypto.randomUUID()), { body: { name: 'x' } }),
      404,
      'NOT_FOUND',
    );
    const other = await createProject(gateway);
    expectError(await gateway.call('DELETE', `${tokensOf(other.id)}/${issued.id}`), 404, 'NOT_FOUND');
    expectError(
      await gateway.call('DELETE', `${tokensOf(project.id)}/${crypto.randomUUID()}`),
      404,
      'NOT_FOUND',
    );
  });

  it('answers 400 for malformed ids and filters', async () => {
    const project = await createProject(gateway);
    expectValidationError(await gateway.call('GET', tokensOf('nope')), ['projectId']);
    expectValidationError(await gateway.call('DELETE', `${tokensOf(project.id)}/nope`), ['tokenId']);
    expectValidationError(await gateway.call('GET', tokensOf(project.id), { query: { revoked: 'maybe' } }), [
      'revoked',
    ]);
  });
});

describe('what a deploy token may do', () => {
  it('uploads a deployment of its project, recorded as uploaded by the token', async () => {
    const project = await createProject(gateway);
    const issued = await issue(project.id);
    const result = await deploy(gateway, project.id, site, { token: issued.token });
    expect(result.status, result.text).toBe(201);
    expect(result.body.data).toMatchObject({
      deployTokenId: issued.id,
      createdBy: 'admin@test',
      production: true,
    });
    expect((await gateway.call('GET', `/sites/${project.slug}/`, { token: null })).text).toBe('from CI');
    const events = await queryRows<{ metadata: { deployTokenId?: string } }>(
      gateway.deps.db,
      sql`select metadata from audit_events where target_id = ${result.body.data.id}`,
    );
    expect(events[0]!.metadata.deployTokenId).toBe(issued.id);
    const listed = await gateway.call('GET', tokensOf(project.id));
    expect(listed.body.data[0].lastUsedAt).not.toBeNull();
  });

  it('reads the deployment it uploaded, so CI can wait for it', async () => {
    const project = await createProject(gateway);
    const issued = await issue(project.id);
    const uploaded = await deploy(gateway, project.id, site, { token: issued.token });
    const url = `/api/pages/${project.id}/deployments/${uploaded.body.data.id}`;
    const read = await gateway.call('GET', url, { token: issued.token });
    expect(read.status).toBe(200);
    expect(read.body.data.previewUrl).toBe(`/sites/${project.slug}/~${uploaded.body.data.id}/`);
  });

  it('cannot read a deployment someone else uploaded (403)', async () => {
    const project = await createProject(gateway);
    const issued = await issue(project.id);
    const byPerson = await deployOk(gateway, project.id, site);
    const byOtherToken = await deploy(gateway, project.id, site, { token: (await issue(project.id)).token });
    for (const id of [byPerson, byOtherToken.body.data.id, crypto.randomUUID(), 'not-a-uuid']) {
      const result = await gateway.call('GET', `/api/pages/${project.id}/deployments/${id}`, {
        token: issued.token,
      });
      expectError(result, 403, 'FORBIDDEN');
      expect(result.body.details.reason).toBe('DEPLOY_TOKEN_OTHER_DEPLOYMENT');
    }
  });

  it('cannot upload to another project (403), and that changes nothing', async () => {
    const mine = await createProject(gateway);
    const theirs = await createProject(gateway);
    const issued = await issue(mine.id);
    for (const projectId of [theirs.id, crypto.randomUUID(), 'not-a-uuid']) {
      const result = await deploy(gateway, projectId, site, { token: issued.token });
      expectError(result, 403, 'FORBIDDEN');
      expect(result.body.details.reason).toBe('DEPLOY_TOKEN_OTHER_PROJECT');
    }
    expect((await gateway.call('GET', `/api/pages/${theirs.id}/deployments`)).body.pagination.total).toBe(0);
  });

  it('cannot list or change anything, even of its own project (401)', async () => {
    const project = await createProject(gateway);
    const issued = await issue(project.id);
    const deploymentId = (await deploy(gateway, project.id, site, { token: issued.token })).body.data.id;
    for (const [method, url] of [
      ['GET', '/api/pages'],
      ['GET', `/api/pages/${project.id}`],
      ['GET', `/api/pages/${project.id}/deployments`],
      ['GET', `/api/pages/${project.id}/deployments/${deploymentId}/files`],
      ['POST', `/api/pages/${project.id}/deployments/${deploymentId}/promote`],
      ['DELETE', `/api/pages/${project.id}/deployments/${deploymentId}`],
      ['GET', tokensOf(project.id)],
      ['POST', tokensOf(project.id)],
      ['GET', '/auth/me'],
    ] as const) {
      expectError(await gateway.call(method, url, { token: issued.token, body: {} }), 401, 'UNAUTHORIZED');
    }
  });

  it('is refused once revoked (401)', async () => {
    const project = await createProject(gateway);
    const issued = await issue(project.id);
    await gateway.call('DELETE', `${tokensOf(project.id)}/${issued.id}`);
    expectError(await deploy(gateway, project.id, site, { token: issued.token }), 401, 'UNAUTHORIZED');
  });

  it('is refused once expired (401)', async () => {
    const project = await createProject(gateway);
    const issued = await issue(project.id, {
      name: 'short',
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    await gateway.deps.db.execute(
      sql`update pages_deploy_tokens set expires_at = now() - interval '1 second' where id = ${issued.id}`,
    );
    expectError(await deploy(gateway, project.id, site, { token: issued.token }), 401, 'UNAUTHORIZED');
  });

  it('is refused once its creator is disabled or loses pages:manage (401)', async () => {
    const project = await createProject(gateway);
    const manager = await gateway.tokenWithScopes(['pages:manage']);
    const issued = await issue(project.id, { name: 'ci' }, manager);
    expect((await deploy(gateway, project.id, site, { token: issued.token })).status).toBe(201);
    await gateway.deps.db.execute(
      sql`update groups set scopes = '{pages:view}' where id = (select u.group_id from users u join pages_deploy_tokens t on t.created_by = u.id where t.id = ${issued.id})`,
    );
    expectError(await deploy(gateway, project.id, site, { token: issued.token }), 401, 'UNAUTHORIZED');
    await gateway.deps.db.execute(
      sql`update groups set scopes = '{pages:manage}' where id = (select u.group_id from users u join pages_deploy_tokens t on t.created_by = u.id where t.id = ${issued.id})`,
    );
    await gateway.deps.db.execute(
      sql`update users set disabled = true where id = (select created_by from pages_deploy_tokens where id = ${issued.id})`,
    );
    expectError(await deploy(gateway, project.id, site, { token: issued.token }), 401, 'UNAUTHORIZED');
  });

  it('works for a creator holding pages:manage on that project only', async () => {
    const project = await createProject(gateway);
    const manager = await gateway.tokenWithScopes([`pages:manage:${project.id}`]);
    const issued = await issue(project.id, { name: 'ci' }, manager);
    expect((await deploy(gateway, project.id, site, { token: issued.token })).status).toBe(201);
  });

  it('is refused when sent as a cookie', async () => {
    const project = await createProject(gateway);
    const issued = await issue(project.id);
    const result = await gateway.call('POST', `/api/pages/${project.id}/deployments`, {
      token: null,
      rawBody: site,
      headers: { 'content-type': 'application/gzip', cookie: `infragate_session=${issued.token}` },
    });
    expectError(result, 401, 'UNAUTHORIZED');
  });

  it('is refused when malformed or unknown (401)', async () => {
    const project = await createProject(gateway);
    for (const token of [`igp_${'A'.repeat(43)}`, 'igp_short']) {
      expectError(await deploy(gateway, project.id, site, { token }), 401, 'UNAUTHORIZED');
    }
  });

  it('stops working when its project is deleted', async () => {
    const project = await createProject(gateway);
    const issued = await issue(project.id);
    await gateway.call('DELETE', `/api/pages/${project.id}`);
    expectError(await deploy(gateway, project.id, site, { token: issued.token }), 401, 'UNAUTHORIZED');
  });
});
