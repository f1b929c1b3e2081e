import https from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGitlab, startFakeGitlab } from '../services/fake-gitlab-v4.js';
import { makeTestPki, openssl } from '../services/openssl-pki.js';
import { freePort, listenOnLoopback } from '../services/peers.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { PROJECT_COUNT, seedGitlab, TOKENS } from './helpers.js';

const URL = '/api/integrations/repohost/connectors/preview-test';

let fake: FakeGitlab;
let gateway: TestGateway;

beforeAll(async () => {
  fake = await startFakeGitlab();
  seedGitlab(fake);
  gateway = await startTestGateway();
});
afterAll(async () => {
  await gateway?.close();
  await fake?.close();
});

const preview = (token: string, baseUrl = fake.url, on = gateway) =>
  on.call('POST', URL, { body: { baseUrl, token } });

describe(`POST ${URL}`, () => {
  it('answers capabilities, allowlist entries, user and token expiry for a full api token', async () => {
    const result = await preview(TOKENS.full);
    expect(result.status).toBe(200);
    const { data } = result.body;
    expect(data.capabilities).toEqual({
      apiReachable: true,
      tokenSelf: true,
      projectsView: true,
      groupsView: true,
      repoRead: true,
      repoWrite: true,
      ciView: true,
      pipelineRead: true,
      registryView: true,
      webhooksManage: true,
    });
    expect(data.user).toEqual({
      id: '1',
      username: 'alice',
      name: 'Alice Admin',
      webUrl: `${fake.url}/alice`,
    });
    expect(data.tokenExpiresAt).toBe('2027-12-31');
    expect(data.tokenScopes).toEqual(['api']);
    expect(data.probedProject).toEqual({ remoteId: '1001', fullPath: 'platform/service-1', accessLevel: 40 });
    expect(data.truncated).toBe(false);
  });

  it('lists every group and every project across pages, following X-Next-Page', async () => {
    fake.requests.length = 0;
    const { data } = (await preview(TOKENS.full)).body;
    const groups = data.allowlistEntries.filter(
      (entry: { entryType: string }) => entry.entryType === 'group',
    );
    const projects = data.allowlistEntries.filter(
      (entry: { entryType: string }) => entry.entryType === 'project',
    );
    expect(groups).toEqual([
      {
        entryType: 'group',
        remoteId: '11',
        fullPath: 'platform',
        name: 'Platform',
        webUrl: `${fake.url}/groups/platform`,
      },
      {
        entryType: 'group',
        remoteId: '12',
        fullPath: 'platform/tools',
        name: 'Tools',
        webUrl: `${fake.url}/groups/platform/tools`,
      },
      { entryType: 'group', remoteId: '13', fullPath: 'web', name: 'Web', webUrl: `${fake.url}/groups/web` },
    ]);
    expect(projects).toHaveLength(PROJECT_COUNT);
    expect(projects[0]).toEqual({
      entryType: 'project',
      remoteId: '1001',
      fullPath: 'platform/service-1',
      name: 'Service 1',
      webUrl: `${fake.url}/platform/service-1`,
    });
    const projectPages = fake.requests
      .filter((request) => request.url.startsWith('/api/v4/projects?'))
      .map((request) => new globalThis.URL(request.url, fake.url).searchParams.get('page'));
    expect(projectPages).toEqual(['1', '2', '3']);
    expect(
      fake.requests.map((request) =>
        new globalThis.URL(request.url, fake.url).searchParams.get('membership'),
      ),
    ).not.toContain('false');
  });

  it('sends the token in the PRIVATE-TOKEN header and never in a URL', async () => {
    fake.requests.length = 0;
    await preview(TOKENS.full);
    expect(fake.requests.length).toBeGreaterThan(0);
    for (const request of fake.requests) {
      expect(request.headers['private-token']).toBe(TOKENS.full);
      expect(request.url).not.toContain(TOKENS.full);
    }
  });

  it('never echoes the token in its answer', async () => {
    const result = await preview(TOKENS.full);
    expect(result.text).not.toContain(TOKENS.full);
    const refused = await preview(TOKENS.revoked);
    expect(refused.text).not.toContain(TOKENS.revoked);
  });

  it('derives read-only capabilities for a read_api token: no repoWrite, no webhooksManage', async () => {
    const { data } = (await preview(TOKENS.readOnly)).body;
    expect(data.capabilities).toMatchObject({
      tokenSelf: true,
      projectsView: true,
      repoRead: true,
      repoWrite: false,
      ciView: true,
      pipelineRead: true,
      webhooksManage: false,
    });
    expect(data.tokenExpiresAt).toBeNull();
  });

  it('gives a developer repoWrite but not webhooksManage', async () => {
    const { data } = (await preview(TOKENS.developer)).body;
    expect(data.capabilities).toMatchObject({ repoRead: true, repoWrite: true, webhooksManage: false });
    expect(data.probedProject.accessLevel).toBe(30);
  });

  it('gives a guest no repository, CI or pipeline access', async () => {
    const { data } = (await preview(TOKENS.guest)).body;
    expect(data.capabilities).toMatchObject({
      projectsView: true,
      repoRead: false,
      repoWrite: false,
      ciView: false,
      pipelineRead: false,
      registryView: false,
      webhooksManage: false,
    });
  });

  it('reports registryView false when the probed project has no container registry', async () => {
    const { data } = (await preview(TOKENS.noRegistry)).body;
    expect(data.probedProject.remoteId).toBe('1002');
    expect(data.capabilities).toMatchObject({ repoRead: true, registryView: false, webhooksManage: true });
  });

  it('answers a read_user token with the user but no projects or groups', async () => {
    const { data } = (await preview(TOKENS.userOnly)).body;
    expect(data.capabilities).toMatchObject({
      apiReachable: true,
      tokenSelf: true,
      projectsView: false,
      groupsView: false,
      repoRead: false,
    });
    expect(data.user.username).toBe('alice');
    expect(data.allowlistEntries).toEqual([]);
    expect(data.probedProject).toBeNull();
  });

  it('answers a token that sees no project with empty entries and no probes', async () => {
    const { data } = (await preview(TOKENS.loner)).body;
    expect(data.allowlistEntries).toEqual([]);
    expect(data.probedProject).toBeNull();
    expect(data.capabilities).toMatchObject({ projectsView: true, groupsView: true, repoRead: false });
  });

  it('accepts a base URL that already ends in /api/v4', async () => {
    expect((await preview(TOKENS.full, `${fake.url}/api/v4/`)).status).toBe(200);
  });

  describe('failures are 422 with a reason', () => {
    it('token rejected: an unknown token', async () => {
      const result = await preview('glpat-NotAKnownToken000000');
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('TOKEN_REJECTED');
      expect(result.body.details.explanation).toContain('token rejected');
    });

    it('redacts the token from values only: a token of `"` answers its 422, not a 500', async () => {
      const result = await preview('"');
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('TOKEN_REJECTED');
    });

    it('redacts the token from values only: a token of `x` leaves the keys of the answer intact', async () => {
      const result = await preview('x');
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(Object.keys(result.body.details)).toContain('explanation');
      expect(result.body.details.explanation).not.toContain('x');
    });

    it('redacts the token from text only: a one-character token inside the reason code leaves the code intact', async () => {
      const result = await preview('T');
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('TOKEN_REJECTED');
      expect(result.body.details.explanation).toContain('token rejected');
    });

    it('redacts the token from text only: a one-character token inside the cause code leaves the cause intact', async () => {
      const result = await preview('N', `http://127.0.0.1:${await freePort()}`);
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details).toMatchObject({ reason: 'HOST_UNREACHABLE', cause: 'ECONNREFUSED' });
      expect(result.body.details.explanation).not.toContain('N');
    });

    it('token rejected: a revoked and an expired token', async () => {
      expect((await preview(TOKENS.revoked)).body.details.reason).toBe('TOKEN_REJECTED');
      expect((await preview(TOKENS.expired)).body.details.reason).toBe('TOKEN_REJECTED');
    });

    it('a host that does not answer within the timeout', async () => {
      const impatient = await startTestGateway({ repohostTimeoutMs: 300 });
      fake.slowMs = 5_000;
      try {
        const result = await preview(TOKENS.full, fake.url, impatient);
        expectError(result, 422, 'UNPROCESSABLE_ENTITY');
        expect(result.body.details).toMatchObject({ reason: 'HOST_TIMEOUT', timeoutMs: 300 });
      } finally {
        fake.slowMs = 0;
        await impatient.close();
      }
    });

    it('a host nobody listens on', async () => {
      const result = await preview(TOKENS.full, `http://127.0.0.1:${await freePort()}`);
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details).toMatchObject({ reason: 'HOST_UNREACHABLE', cause: 'ECONNREFUSED' });
    });

    it('a base URL that is not a GitLab', async () => {
      const result = await preview(TOKENS.full, `${fake.url}/not-gitlab`);
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('NOT_GITLAB');
    });

    it('egress refused by INFRAGATE_EGRESS=private, naming the rule', async () => {
      const strict = await startTestGateway({ egress: 'private' });
      try {
        const result = await preview(TOKENS.full, fake.url, strict);
        expectError(result, 422, 'UNPROCESSABLE_ENTITY');
        expect(result.body.details).toMatchObject({
          reason: 'EGRESS_DENIED',
          rule: 'loopback addresses are not allowed by INFRAGATE_EGRESS=private',
          address: '127.0.0.1',
        });
      } finally {
        await strict.close();
      }
    });

    it('egress to a cloud metadata address, refused under any policy', async () => {
      const result = await preview(TOKENS.full, 'http://169.254.169.254');
      expect(result.body.details.reason).toBe('EGRESS_DENIED');
      expect(result.body.details.rule).toMatch(/always refused/);
    });

    it.skipIf(!openssl.path)('a TLS certificate the gateway does not trust', async () => {
      const pki = makeTestPki();
      const server = https.createServer(
        { cert: pki.rsaLeaf.certificatePem + pki.intermediate.certificatePem, key: pki.rsaLeaf.keyPem },
        (_request, response) => response.end('{}'),
      );
      const port = await listenOnLoopback(server);
      try {
        const result = await preview(TOKENS.full, `https://127.0.0.1:${port}`);
        expectError(result, 422, 'UNPROCESSABLE_ENTITY');
        expect(result.body.details.reason).toBe('TLS_ERROR');
        expect(result.body.details.cause).toMatch(/CERT|SIGNATURE|ISSUER/);
      } finally {
        server.closeAllConnections();
        server.close();
        pki.cleanup();
      }
    });
  });

  describe('with a listing cap', () => {
    let capped: TestGateway;
    beforeAll(async () => {
      capped = await startTestGateway({ repohostPreviewMaxItems: 120 });
    });
    afterAll(() => capped?.close());

    it('stops following pages at INFRAGATE_REPOHOST_PREVIEW_MAX_ITEMS and says so', async () => {
      fake.requests.length = 0;
      const { data } = (await preview(TOKENS.full, fake.url, capped)).body;
      const projects = data.allowlistEntries.filter(
        (entry: { entryType: string }) => entry.entryType === 'project',
      );
      expect(projects).toHaveLength(120);
      expect(data.truncated).toBe(true);
      const listings = fake.requests.filter((request) => request.url.startsWith('/api/v4/projects?'));
      expect(listings).toHaveLength(2);
    });

    it('resolves a connector allowlist entry past the cap by asking the host for it', async () => {
      fake.requests.length = 0;
      const result = await capped.call('POST', '/api/integrations/repohost/connectors', {
        body: {
          name: 'capped',
          baseUrl: fake.url,
          token: TOKENS.full,
          allowlist: [{ entryType: 'project', remoteId: '1250', fullPath: 'platform/service-250' }],
        },
      });
      expect(result.status).toBe(201);
      expect(result.body.data.allowlist[0]).toMatchObject({ remoteId: '1250', name: 'Service 250' });
      expect(fake.requests.map((request) => request.url)).toContain('/api/v4/projects/1250');
    });
  });

  describe('validation', () => {
    it('requires baseUrl and token', async () => {
      const result = await gateway.call('POST', URL, { body: {} });
      expectValidationError(result, ['baseUrl']);
      expectValidationError(result, ['token']);
    });

    it('refuses a baseUrl that is not a URI', async () => {
      expectValidationError(await preview(TOKENS.full, 'not a url'), ['baseUrl']);
    });

    it('refuses a baseUrl with another scheme, credentials or a query', async () => {
      expectValidationError(await preview(TOKENS.full, 'ftp://gitlab.example.com'), ['baseUrl']);
      expectValidationError(await preview(TOKENS.full, 'https://user:pw@gitlab.example.com'), ['baseUrl']);
      expectValidationError(await preview(TOKENS.full, 'https://gitlab.example.com/?a=1'), ['baseUrl']);
    });

    it('refuses an empty or oversized token', async () => {
      expectValidationError(await preview(''), ['token']);
      expectValidationError(await preview('x'.repeat(1025)), ['token']);
      expectValidationError(await preview('glpat-abc\r\nX-Injected: 1'), ['token']);
      expectValidationError(await preview('glpat abc'), ['token']);
    });
  });

  describe('access', () => {
    it('needs a token (401)', async () => {
      expectError(
        await gateway.call('POST', URL, { token: null, body: { baseUrl: fake.url, token: TOKENS.full } }),
        401,
        'UNAUTHORIZED',
      );
    });

    it('needs integrations:manage (403 without a scope and with integrations:view)', async () => {
      for (const scopes of [[], ['integrations:view']]) {
        const token = await gateway.tokenWithScopes(scopes);
        expectError(
          await gateway.call('POST', URL, { token, body: { baseUrl: fake.url, token: TOKENS.full } }),
          403,
          'FORBIDDEN',
        );
      }
    });

    it('works with integrations:manage', async () => {
      const token = await gateway.tokenWithScopes(['integrations:manage']);
      const result = await gateway.call('POST', URL, {
        token,
        body: { baseUrl: fake.url, token: TOKENS.full },
      });
      expect(result.status).toBe(200);
    });
  });
});
