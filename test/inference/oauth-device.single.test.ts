import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, inferenceConnections, inferenceOauthSessions } from '../../src/db/schema/index.js';
import { loadCatalog } from '../../src/inference-catalog.js';
import { SESSION_EXPIRY_JOB } from '../../src/modules/inference/module.js';
import { OAuthSessionService } from '../../src/modules/inference/oauth-sessions.js';
import { ProviderCatalog } from '../../src/modules/inference/provider-catalog.js';
import { type OidcPeer, POLL_INTERVAL_SECONDS } from '../services/oidc-provider.js';
import { eventually } from '../support/eventually.js';
import { expectError } from '../support/expectations.js';
import type { TestGateway } from '../support/gateway.js';
import { type OAuthTestBed, startOAuthTestBed } from './helpers.js';

let bed: OAuthTestBed;
let gateway: TestGateway;
let oidc: OidcPeer;

beforeAll(async () => {
  bed = await startOAuthTestBed();
  ({ gateway, oidc } = bed);
});
afterAll(() => bed?.close());

async function start(providerId = 'test-device') {
  const result = await gateway.call('POST', '/api/inference/providers/oauth/start', { body: { providerId } });
  expect(result.status).toBe(201);
  return result.body;
}

const poll = (id: string) => gateway.call('POST', `/api/inference/providers/oauth/${id}/complete`);

describe('device flow (device_poll)', () => {
  it('starts with the user code, the poll interval and the verification URI as authorizationUrl', async () => {
    const session = await start();
    expect(session).toMatchObject({
      providerId: 'test-device',
      status: 'pending',
      completionMode: 'device_poll',
      pollIntervalSeconds: POLL_INTERVAL_SECONDS,
      connectionId: null,
    });
    expect(session.userCode).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    expect(session.authorizationUrl).toBe(`${oidc.issuer}/device`);
  });

  it('keeps a session pending while the user has not approved (authorization_pending)', async () => {
    const session = await start();
    const result = await poll(session.id);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ status: 'pending', errorCode: null, connectionId: null });
  });

  it('completes once the user entered the code and approved, storing the tokens in a new connection', async () => {
    const session = await start();
    await oidc.browser.approveDevice(session.authorizationUrl, session.userCode);
    const result = await poll(session.id);
    expect(result.body.status).toBe('complete');
    const connection = await gateway.call('GET', `/api/inference/connections/${result.body.connectionId}`);
    expect(connection.body.data).toMatchObject({
      providerId: 'test-device',
      authType: 'oauth',
      hasAccessToken: true,
      hasRefreshToken: true,
    });
    const [row] = await gateway.deps.db
      .select()
      .from(inferenceConnections)
      .where(eq(inferenceConnections.id, result.body.connectionId));
    const token = gateway.deps.secrets.open(row!.accessTokenSealed!, 'inference_connections.access_token');
    expect(await oidc.isActive(token)).toBe(true);
    const tested = await gateway.call('POST', `/api/inference/connections/${result.body.connectionId}/test`);
    expect(tested.body.data).toMatchObject({ ok: true, modelCount: 2 });
  });

  it('raises the poll interval by 5 seconds when the provider answers slow_down', async () => {
    const session = await start();
    expect((await poll(session.id)).body.status).toBe('pending');
    const result = await poll(session.id);
    expect(result.body).toMatchObject({ status: 'pending', pollIntervalSeconds: POLL_INTERVAL_SECONDS + 5 });
  });

  it('ends in error with access_denied when the user aborts', async () => {
    const session = await start();
    await oidc.browser.approveDevice(session.authorizationUrl, session.userCode, 'deny');
    const result = await poll(session.id);
    expect(result.body).toMatchObject({ status: 'error', errorCode: 'access_denied', connectionId: null });
    expect(typeof result.body.errorMessage).toBe('string');
  });

  it('answers expired once the session is past its expiresAt, without polling', async () => {
    const session = await start();
    await gateway.deps.db
      .update(inferenceOauthSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(inferenceOauthSessions.id, session.id));
    expect((await poll(session.id)).body.status).toBe('expired');
  });

  it('answers expired when the provider says the device code expired (expired_token)', async () => {
    const session = await start('test-device-short');
    // The gateway's own clock says there is time left; only the provider knows the code expired.
    await gateway.deps.db
      .update(inferenceOauthSessions)
      .set({ expiresAt: new Date(Date.now() + 3_600_000) })
      .where(eq(inferenceOauthSessions.id, session.id));
    // The session started with the provider's expires_in counted from the gateway's receipt of it,
    // so once that expiresAt has passed the provider's code has too. One poll, after it: polling
    // while waiting would be answered slow_down and never reach the provider's expiry check.
    await eventually(() => Date.now() > Date.parse(session.expiresAt), 'the device code to expire');
    const result = await poll(session.id);
    expect(result.body).toMatchObject({ status: 'expired', errorCode: 'expired_token' });
  });

  it('expires overdue pending sessions in the background job', async () => {
    const session = await start();
    await gateway.deps.db
      .update(inferenceOauthSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(inferenceOauthSessions.id, session.id));
    await gateway.deps.jobs.runNow(SESSION_EXPIRY_JOB);
    const [row] = await gateway.deps.db
      .select()
      .from(inferenceOauthSessions)
      .where(eq(inferenceOauthSessions.id, session.id));
    expect(row!.status).toBe('expired');
    expect(row!.deviceCodeSealed).toBeNull();
  });

  it('cancels a pending device session; polling it afterwards answers cancelled', async () => {
    const session = await start();
    await gateway.call('POST', `/api/inference/providers/oauth/${session.id}/cancel`);
    expect((await poll(session.id)).body.status).toBe('cancelled');
  });

  it('records one cancellation when two gateway processes cancel the same session at once', async () => {
    const session = await start();
    const catalog = new ProviderCatalog(loadCatalog(gateway.config.inferenceCatalogPath));
    const processes = [
      new OAuthSessionService({ ...gateway.deps, catalog }),
      new OAuthSessionService({ ...gateway.deps, catalog }),
    ];
    const actor = { userId: null, email: 'system', requestId: null, clientIp: null };
    const answers = await Promise.all(processes.map((service) => service.cancel(actor, session.id)));
    expect(answers.map((answer) => answer.status)).toEqual(['cancelled', 'cancelled']);
    const events = await gateway.deps.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.targetId, session.id));
    expect(events.filter((event) => event.action === 'inference.oauth_session.cancelled')).toHaveLength(1);
  });

  it('ignores a callback sent to a device session and polls', async () => {
    const session = await start();
    const result = await gateway.call('POST', `/api/inference/providers/oauth/${session.id}/complete`, {
      body: { callback: 'abc#def' },
    });
    expect(result.body.status).toBe('pending');
  });

  it('refuses to start when the device authorization endpoint is unreachable, with 422 PROVIDER_UNREACHABLE', async () => {
    const result = await gateway.call('POST', '/api/inference/providers/oauth/start', {
      body: { providerId: 'test-unreachable' },
    });
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details.reason).toBe('PROVIDER_UNREACHABLE');
  });
});
