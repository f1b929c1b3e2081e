import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OidcPeer, startOidcProvider } from '../services/oidc-provider.js';
import { auditEventsMatching } from '../support/audit-events.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { createPasswordUser } from './helpers.js';
import { addProvider, callback, landing, signInThrough, startSignIn } from './oidc-helpers.js';

let oidc: OidcPeer;
let gateway: TestGateway;

beforeAll(async () => {
  oidc = await startOidcProvider();
  gateway = await startTestGateway({ loginMaxFailuresPerAddress: 2 });
});
afterAll(async () => {
  await gateway?.close();
  await oidc?.close();
});

describe('login throttling of single sign-on callbacks', () => {
  it('refuses even a good callback once an address had too many refused ones', async () => {
    const provider = await addProvider(gateway, oidc);
    for (let attempt = 0; attempt < 2; attempt++) {
      const { binding } = await startSignIn(gateway, provider.id);
      const forged = 'http://127.0.0.1:8080/auth/oidc/callback?code=guess&state=guessed-state';
      expect(landing(await callback(gateway, forged, binding)).reason).toBe('SSO_STATE_INVALID');
    }
    const user = await createPasswordUser(gateway);
    oidc.accounts.set('throttled', { email: user.email, email_verified: true });
    const result = await signInThrough(gateway, oidc, provider.id, 'throttled');
    expect(landing(result)).toMatchObject({ reason: 'TOO_MANY_FAILED_LOGINS', cookie: undefined });
    const throttled = await auditEventsMatching(gateway, { action: 'auth.login.throttled' });
    expect(throttled.map((event) => event.metadata)).toContainEqual({ method: 'oidc' });
  });
});
