import { sql } from 'drizzle-orm';
import { bigint, boolean, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { groups, users } from './identity.js';

/** One rule of an identity provider's group mapping: members of `providerGroup` join `groupId`. */
export interface GroupMapping {
  providerGroup: string;
  groupId: string;
}

/** OpenID Connect providers people sign in with; the client secret is sealed. */
export const identityProviders = pgTable('identity_providers', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  issuer: text('issuer').notNull(),
  clientId: text('client_id').notNull(),
  /** Null once a change of `issuer` dropped it (src/core/trust-boundary.ts): nobody signs in until one is sent. */
  clientSecretSealed: text('client_secret_sealed'),
  scopes: text('scopes').array().notNull().default(sql`'{}'::text[]`),
  groupsClaim: text('groups_claim'),
  /** In the order given: the first rule that matches a member wins. */
  groupMap: jsonb('group_map').$type<GroupMapping[]>().notNull().default(sql`'[]'::jsonb`),
  autoCreateUsers: boolean('auto_create_users').notNull().default(false),
  defaultGroupId: uuid('default_group_id').references(() => groups.id),
  allowedEmailDomains: text('allowed_email_domains').array().notNull().default(sql`'{}'::text[]`),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * Sign-ins sent to a provider and not back yet: the hash of `state` finds the row, the hash of the
 * browser's binding cookie proves the callback comes to the browser that started it, and the
 * nonce and PKCE verifier (sealed) check what the provider answers. A row is used once.
 */
export const oidcSignIns = pgTable(
  'oidc_sign_ins',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => identityProviders.id, { onDelete: 'cascade' }),
    stateHash: text('state_hash').notNull().unique(),
    browserHash: text('browser_hash').notNull(),
    nonceSealed: text('nonce_sealed').notNull(),
    codeVerifierSealed: text('code_verifier_sealed').notNull(),
    nextPath: text('next_path').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('oidc_sign_ins_expires_idx').on(table.expiresAt)],
);

/** A user's TOTP secret (sealed); `enabledAt` is null while the enrolment waits for its first code. */
export const userTotp = pgTable('user_totp', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretSealed: text('secret_sealed').notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  /** The RFC 6238 time step of the last accepted code; a code of this step or earlier is refused. */
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/** One-time recovery codes of a user's TOTP enrolment; only SHA-256 hashes are kept. */
export const recoveryCodes = pgTable(
  'user_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull().unique(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('user_recovery_codes_user_idx').on(table.userId)],
);

/** What the second login step asks for: a code (`totp`), or an enrolment first (`enrol`). */
export const LOGIN_CHALLENGE_KINDS = ['totp', 'enrol'] as const;
export type LoginChallengeKind = (typeof LOGIN_CHALLENGE_KINDS)[number];

/** A login whose password was right and that waits for its second step; only the token's hash is kept. */
export const loginChallenges = pgTable(
  'login_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: LOGIN_CHALLENGE_KINDS }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [index('login_challenges_user_idx').on(table.userId)],
);

/**
 * Sign-in steps whose secret (a password, a second-factor code, a recovery code) is being checked
 * now: the login throttle counts them with the failures of the audit trail, so attempts sent
 * together cannot all be checked before the first failure is recorded. A step's row goes when it
 * ends: a failure replaces it with its `auth.login.failed` event, a success drops it. A row left by
 * a process that died counts as a failure until it leaves the throttle's window.
 */
export const signInAttempts = pgTable(
  'sign_in_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The email tried, as the throttle counts it (lower case); null when not known yet. */
    email: text('email'),
    clientIp: text('client_ip').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('sign_in_attempts_started_idx').on(table.startedAt)],
);
