import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';

export const groups = pgTable('groups', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  scopes: text('scopes').array().notNull().default(sql`'{}'::text[]`),
  /** Members must sign in with a second factor (TOTP); those without one may only enrol. */
  requireMfa: boolean('require_mfa').notNull().default(false),
  createdAt: createdAt(),
});

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  groupId: uuid('group_id')
    .notNull()
    .references(() => groups.id),
  passwordHash: text('password_hash'),
  disabled: boolean('disabled').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** What a token is: an API token (Bearer) or a browser session (cookie + CSRF token). */
export const TOKEN_KINDS = ['api', 'session'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

/** API tokens and browser sessions; only SHA-256 hashes of the secrets are kept. */
export const authTokens = pgTable(
  'auth_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: TOKEN_KINDS }).notNull(),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** The secret's first characters (`igw_` + 8), shown so a person can tell tokens apart; null before 0020. */
    prefix: text('prefix'),
    csrfHash: text('csrf_hash'),
    /**
     * What an API token is narrowed to: it may do what these and its user's current scopes both
     * allow. Null: all of its user's scopes (sessions, and tokens made without a choice).
     */
    scopes: text('scopes').array(),
    userAgent: text('user_agent'),
    clientIp: text('client_ip'),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('auth_tokens_user_kind_idx').on(table.userId, table.kind)],
);
