import { boolean, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { type Static, Type } from 'typebox';
import { createdAt, updatedAt } from './columns.js';

/**
 * The jsonb columns' shapes are TypeBox schemas, declared once here: the columns are typed with their
 * Static, and the repohost routes answer them with these same schemas.
 */

export const ALLOWLIST_ENTRY_TYPES = ['group', 'project'] as const;

const NullableString = Type.Union([Type.String(), Type.Null()]);

/** A GitLab group or project; a union of literals (`anyOf` of `const`s), as the API document has it. */
export const AllowlistEntryType = Type.Unsafe<(typeof ALLOWLIST_ENTRY_TYPES)[number]>(
  Type.Union(ALLOWLIST_ENTRY_TYPES.map((entryType) => Type.Literal(entryType))),
);

/** A group or project a connector may use, with the host's current path, name and URL. */
export const AllowlistEntry = Type.Object(
  {
    entryType: AllowlistEntryType,
    remoteId: Type.String(),
    fullPath: Type.String(),
    name: NullableString,
    webUrl: NullableString,
  },
  { title: 'AllowlistEntry' },
);

/** The GitLab user a token belongs to. */
export const RemoteUser = Type.Object(
  {
    id: Type.String(),
    username: Type.String(),
    name: Type.String(),
    webUrl: NullableString,
  },
  { title: 'RemoteUser' },
);

/** Why the last test of a connector failed. */
export const TestFailure = Type.Object(
  {
    reason: Type.String(),
    explanation: Type.String(),
  },
  { title: 'ConnectorTestFailure' },
);

export type AllowlistEntry = Static<typeof AllowlistEntry>;
export type RemoteUser = Static<typeof RemoteUser>;
export type TestFailure = Static<typeof TestFailure>;

/** Repository host (GitLab API v4) connectors; the access token is kept sealed, never in clear. */
export const repohostConnectors = pgTable('repohost_connectors', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  baseUrl: text('base_url').notNull(),
  /** Null once a change of `baseUrl` dropped it (src/core/trust-boundary.ts), until a token is sent. */
  tokenSealed: text('token_sealed'),
  allowlist: jsonb('allowlist').$type<AllowlistEntry[]>().notNull(),
  capabilities: jsonb('capabilities').$type<Record<string, boolean>>().notNull(),
  tokenScopes: jsonb('token_scopes').$type<string[] | null>(),
  tokenExpiresAt: text('token_expires_at'),
  remoteUser: jsonb('remote_user').$type<RemoteUser | null>(),
  lastTestedAt: timestamp('last_tested_at', { withTimezone: true }).notNull(),
  lastTestOk: boolean('last_test_ok').notNull(),
  lastTestError: jsonb('last_test_error').$type<TestFailure | null>(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
