import crypto from 'node:crypto';

/**
 * The gateway's single sign-on clients at the oidc-provider peer: confidential clients (a secret,
 * `client_secret_basic`) whose redirect URI is the gateway's `/auth/oidc/callback` on any loopback
 * port (a native client, RFC 8252 §7.3, since a test gateway's port is only known once it listens).
 *
 * Three of them exist to prove the gateway checks the ID token: for them the provider's answer is
 * changed after the fact. The expired and wrong-audience tokens are signed again with the
 * provider's own key, so only the named claim is wrong; the forged one is signed with another key.
 */
export const SSO_CLIENTS = {
  signIn: 'infragate-sso',
  expired: 'infragate-sso-expired',
  wrongAudience: 'infragate-sso-wrong-audience',
  forged: 'infragate-sso-forged',
} as const;

export const ssoSecretOf = (clientId: string) => `${clientId}-secret`;

export const SSO_REDIRECT_PATH = '/auth/oidc/callback';

export const ssoClientRegistrations = () =>
  Object.values(SSO_CLIENTS).map((clientId) => ({
    client_id: clientId,
    client_secret: ssoSecretOf(clientId),
    application_type: 'native',
    token_endpoint_auth_method: 'client_secret_basic',
    redirect_uris: [`http://127.0.0.1${SSO_REDIRECT_PATH}`],
    grant_types: ['authorization_code'],
    response_types: ['code'],
  }));

/** The provider's signing key as a JWK with its key id, for its `jwks` configuration. */
export function signingKeyPair() {
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKey,
    jwk: { ...privateKey.export({ format: 'jwk' }), kid: 'peer-signing-key', alg: 'RS256', use: 'sig' },
  };
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function resign(idToken: string, key: crypto.KeyObject, change: (claims: Record<string, unknown>) => void) {
  const [header, payload] = idToken.split('.');
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Record<string, unknown>;
  change(claims);
  const signingInput = `${header}.${base64url(claims)}`;
  const signature = crypto.sign('sha256', Buffer.from(signingInput), key).toString('base64url');
  return `${signingInput}.${signature}`;
}

/** The ID token the token endpoint answers `clientId`, changed for the three checking clients. */
export function idTokenRewriter(signingKey: crypto.KeyObject) {
  const otherKey = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  return (clientId: string, idToken: string): string => {
    const now = Math.floor(Date.now() / 1000);
    switch (clientId) {
      case SSO_CLIENTS.expired:
        return resign(idToken, signingKey, (claims) => {
          claims.iat = now - 7200;
          claims.exp = now - 3600;
        });
      case SSO_CLIENTS.wrongAudience:
        return resign(idToken, signingKey, (claims) => {
          claims.aud = 'some-other-client';
        });
      case SSO_CLIENTS.forged:
        return resign(idToken, otherKey, () => undefined);
      default:
        return idToken;
    }
  };
}

/** The client id of a token request authenticated with HTTP Basic (`client_secret_basic`). */
export function basicClientId(authorization: string | undefined): string | undefined {
  const match = /^Basic\s+(\S+)$/i.exec(authorization ?? '');
  if (!match) return undefined;
  const [id] = Buffer.from(match[1]!, 'base64').toString('utf8').split(':');
  return id ? decodeURIComponent(id) : undefined;
}
