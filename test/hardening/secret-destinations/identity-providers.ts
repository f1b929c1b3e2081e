import crypto from 'node:crypto';
import { startOidcProvider } from '../../services/oidc-provider.js';
import type { SecretDestinationCase } from './case.js';

const secret = `oidc-walk-${crypto.randomUUID()}`;
const BINDING_COOKIE = /(?:^|,\s*)(infragate_oidc=[^;]+)/;

/**
 * A single sign-on provider: its client secret goes to the token endpoint that the `issuer`'s
 * discovery document names, in `Authorization: Basic` (base64 of `clientId:secret`), when a sign-in
 * comes back with a code. The first issuer is the real oidc-provider (a provider is saved only once
 * its issuer is discovered); at the capture server the issuer describes itself, and its token
 * endpoint refuses every client.
 */
export const identityProvider: SecretDestinationCase = {
  operation: 'PATCH /api/admin/identity-providers/{id}',
  secret,
  secretField: 'clientSecret',
  async peer() {
    const oidc = await startOidcProvider();
    return { destination: oidc.issuer, close: () => oidc.close() };
  },
  answer(request, capture) {
    if (request.path === '/.well-known/openid-configuration')
      return {
        status: 200,
        body: {
          issuer: capture.httpUrl,
          authorization_endpoint: `${capture.httpUrl}/authorize`,
          token_endpoint: `${capture.httpUrl}/token`,
          jwks_uri: `${capture.httpUrl}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
        },
      };
    if (request.path === '/token') return { status: 401, body: { error: 'invalid_client' } };
    return undefined;
  },
  async create(gateway, firstDestination) {
    const result = await gateway.call('POST', '/api/admin/identity-providers', {
      body: {
        name: `walk-${crypto.randomUUID()}`,
        issuer: firstDestination,
        clientId: 'infragate-walk',
        clientSecret: secret,
      },
    });
    return `/api/admin/identity-providers/${result.body.data.id}`;
  },
  retarget: (gateway, recordPath, capture) =>
    gateway.call('PATCH', recordPath, { body: { issuer: capture.httpUrl } }),
  /** A sign-in as a browser makes it: the start, then the callback with a code, which the gateway exchanges. */
  async use(gateway, recordPath) {
    const providerId = recordPath.slice(recordPath.lastIndexOf('/') + 1);
    const start = await gateway.call('GET', `/auth/oidc/${providerId}/start`, { token: null });
    if (start.status !== 302) return start;
    const state = new URL(String(start.headers.location)).searchParams.get('state') ?? '';
    const cookie = BINDING_COOKIE.exec([start.headers['set-cookie']].flat().join(', '))?.[1] ?? '';
    return gateway.call('GET', '/auth/oidc/callback', {
      token: null,
      query: { code: 'walk-code', state },
      headers: { cookie },
    });
  },
};
