import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { users } from './identity.js';

/** How a connection authenticates: signed in with OAuth, an API key, or nothing (a local server). */
export const INFERENCE_AUTH_TYPES = ['oauth', 'api_key', 'local'] as const;
/** The OAuth sign-in flows: redirect + PKCE with a pasted callback, or the device flow (RFC 8628). */
export const OAUTH_FLOWS = ['redirect', 'device'] as const;
/** How a session is completed, one per flow: the pasted callback, or polling the token endpoint. */
export const COMPLETION_MODES = ['paste_callback', 'device_poll'] as const;
export const OAUTH_SESSION_STATUSES = ['pending', 'complete', 'error', 'expired', 'cancelled'] as const;

/**
 * A connection to an inference provider of the catalog. Credentials are sealed with the master key
 * (`inference_connections.<column>`) and never answered.
 */
export const inferenceConnections = pgTable(
  'inference_connections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    providerId: text('provider_id').notNull(),
    name: text('name').notNull().unique(),
    authType: text('auth_type', { enum: INFERENCE_AUTH_TYPES }).notNull(),
    /** Operator's base URL, only for catalog entries that allow it; null means the catalog's. */
    baseUrl: text('base_url'),
    apiKeySealed: text('api_key_sealed'),
    accessTokenSealed: text('access_token_sealed'),
    refreshTokenSealed: text('refresh_token_sealed'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    tokenScope: text('token_scope'),
    lastRefreshedAt: timestamp('last_refreshed_at', { withTimezone: true }),
    lastRefreshError: text('last_refresh_error'),
    lastTestedAt: timestamp('last_tested_at', { withTimezone: true }),
    lastTestOk: boolean('last_test_ok'),
    lastTestError: text('last_test_error'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('inference_connections_provider_idx').on(table.providerId),
    index('inference_connections_refresh_idx').on(table.accessTokenExpiresAt),
  ],
);

/** An OAuth sign-in in progress (redirect + PKCE with a pasted callback, or the device flow). */
export const inferenceOauthSessions = pgTable(
  'inference_oauth_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    providerId: text('provider_id').notNull(),
    status: text('status', { enum: OAUTH_SESSION_STATUSES }).notNull(),
    flow: text('flow', { enum: OAUTH_FLOWS }).notNull(),
    completionMode: text('completion_mode', { enum: COMPLETION_MODES }).notNull(),
    authorizationUrl: text('authorization_url').notNull(),
    /** Name of the connection the session creates. */
    connectionName: text('connection_name').notNull(),
    stateSealed: text('state_sealed'),
    codeVerifierSealed: text('code_verifier_sealed'),
    deviceCodeSealed: text('device_code_sealed'),
    redirectUri: text('redirect_uri'),
    userCode: text('user_code'),
    pollIntervalSeconds: integer('poll_interval_seconds'),
    lastPolledAt: timestamp('last_polled_at', { withTimezone: true }),
    connectionId: uuid('connection_id').references(() => inferenceConnections.id, { onDelete: 'set null' }),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('inference_oauth_sessions_status_idx').on(table.status, table.expiresAt)],
);
