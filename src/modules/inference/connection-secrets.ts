import { unprocessable } from '../../core/errors.js';
import type { SecretBox } from '../../core/secret-box.js';
import type { inferenceConnections } from '../../db/schema/index.js';
import type { CatalogEntry } from '../../inference-catalog.js';
import type { TokenSet } from './oauth-client.js';

type ConnectionRow = typeof inferenceConnections.$inferSelect;

/** Where each sealed value lives; the context binds a ciphertext to its column. */
export const SEALED_IN = {
  apiKey: 'inference_connections.api_key',
  accessToken: 'inference_connections.access_token',
  refreshToken: 'inference_connections.refresh_token',
  state: 'inference_oauth_sessions.state',
  codeVerifier: 'inference_oauth_sessions.code_verifier',
  deviceCode: 'inference_oauth_sessions.device_code',
} as const;

/**
 * The connection columns that hold a token set. A refresh token or scope the provider did not send is
 * left out: a new connection stores null, a refreshed one keeps what it had (providers that do not
 * rotate refresh tokens keep the old one valid).
 */
export function tokenColumns(secrets: SecretBox, tokens: TokenSet) {
  return {
    accessTokenSealed: secrets.seal(tokens.accessToken, SEALED_IN.accessToken),
    ...(tokens.refreshToken
      ? { refreshTokenSealed: secrets.seal(tokens.refreshToken, SEALED_IN.refreshToken) }
      : {}),
    accessTokenExpiresAt: tokens.expiresAt,
    ...(tokens.scope !== undefined ? { tokenScope: tokens.scope } : {}),
  };
}

/** The headers that carry a connection's credential to its provider (none for a local server without a key). */
export function credentialHeaders(
  secrets: SecretBox,
  row: ConnectionRow,
  entry: CatalogEntry,
): Record<string, string> {
  if (row.authType === 'oauth') {
    if (!row.accessTokenSealed)
      throw unprocessable('NO_ACCESS_TOKEN', 'this connection holds no access token; sign in again');
    return { authorization: `Bearer ${secrets.open(row.accessTokenSealed, SEALED_IN.accessToken)}` };
  }
  if (!row.apiKeySealed) {
    if (row.authType === 'api_key')
      throw unprocessable(
        'NO_API_KEY',
        'this connection holds no API key (a new base URL dropped it); set one',
      );
    return {};
  }
  const key = secrets.open(row.apiKeySealed, SEALED_IN.apiKey);
  const header = entry.apiKeyHeader ?? { name: 'authorization', prefix: 'Bearer ' };
  return { [header.name.toLowerCase()]: `${header.prefix ?? ''}${key}` };
}
