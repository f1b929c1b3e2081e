import { boolean, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';

export interface AllowlistEntry {
  entryType: 'group' | 'project';
  remoteId: string;
  fullPath: string;
  name: string | null;
  webUrl: string | null;
}

export interface RemoteUser {
  id: string;
  username: string;
  name: string;
  webUrl: string | null;
}

export interface TestFailure {
  reason: string;
  explanation: string;
}

/** Repository host (GitLab API v4) connectors; the access token is kept sealed, never in clear. */
export const repohostConnectors = pgTable('repohost_connectors', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  baseUrl: text('base_url').notNull(),
  tokenSealed: text('token_sealed').notNull(),
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
