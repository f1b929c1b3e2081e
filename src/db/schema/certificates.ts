import {
  type AnyPgColumn,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';

/** Where a stored certificate comes from: uploaded by an operator, or ordered from an ACME CA. */
export const CERTIFICATE_SOURCES = ['uploaded', 'acme'] as const;
/**
 * `pending`: the first ACME order is running, nothing to serve yet. `valid`: served. `renewing`: an
 * ACME renewal is running or waiting to retry, the current certificate is still served. `failed`:
 * the order failed (or the certificate expired while renewals kept failing); `lastError` says why.
 */
export const CERTIFICATE_STATUSES = ['pending', 'valid', 'failed', 'renewing'] as const;
export const ACME_CHALLENGE_TYPES = ['http-01', 'dns-01'] as const;
export const DNS_PROVIDER_KINDS = ['rfc2136'] as const;
export const TSIG_ALGORITHMS = ['hmac-sha256', 'hmac-sha384', 'hmac-sha512'] as const;

/**
 * SSL certificates. The certificate and its chain are public and kept as PEM; the private key is kept
 * only sealed (AES-256-GCM under the master key, see SecretBox), as PKCS#8 once decrypted. The
 * material columns are empty only while an ACME certificate has not been issued yet.
 */
export const sslCertificates = pgTable(
  'ssl_certificates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull().unique(),
    certificatePem: text('certificate_pem'),
    /** Intermediates (and optionally the root), leaf's issuer first; empty when none was given. */
    chainPem: text('chain_pem').notNull().default(''),
    privateKeySealed: text('private_key_sealed'),
    subject: text('subject'),
    issuer: text('issuer'),
    serialNumber: text('serial_number'),
    sans: text('sans').array(),
    notBefore: timestamp('not_before', { withTimezone: true }),
    notAfter: timestamp('not_after', { withTimezone: true }),
    fingerprintSha256: text('fingerprint_sha256'),
    keyType: text('key_type'),
    keyBits: integer('key_bits'),
    curve: text('curve'),
    chainLength: integer('chain_length'),
    source: text('source', { enum: CERTIFICATE_SOURCES }).notNull().default('uploaded'),
    status: text('status', { enum: CERTIFICATE_STATUSES }).notNull().default('valid'),
    /** The CA's (or the DNS server's) reason for the last failure; cleared by a success. */
    lastError: text('last_error'),
    /** ACME only: when the next renewal (or the retry of a failed one) is due. */
    nextRenewalAt: timestamp('next_renewal_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('ssl_certificates_not_after_idx').on(table.notAfter)],
);

/** One ACME account per directory and contact email; its key is sealed like certificate keys. */
export const acmeAccounts = pgTable(
  'acme_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    directoryUrl: text('directory_url').notNull(),
    email: text('email').notNull(),
    accountKeySealed: text('account_key_sealed').notNull(),
    /** Set once the CA has registered the account (its `kid`). */
    accountUrl: text('account_url'),
    createdAt: createdAt(),
  },
  (table) => [unique('acme_accounts_directory_email_key').on(table.directoryUrl, table.email)],
);

/** A DNS server that takes RFC 2136 dynamic updates signed with a TSIG key (the secret sealed). */
export const acmeDnsProviders = pgTable('acme_dns_providers', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  kind: text('kind', { enum: DNS_PROVIDER_KINDS }).notNull(),
  server: text('server').notNull(),
  port: integer('port').notNull(),
  zone: text('zone').notNull(),
  tsigKeyName: text('tsig_key_name').notNull(),
  tsigAlgorithm: text('tsig_algorithm', { enum: TSIG_ALGORITHMS }).notNull(),
  tsigSecretSealed: text('tsig_secret_sealed').notNull(),
  ttl: integer('ttl').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * The ACME side of a certificate: what to order, and the order in progress (its URL and the sealed
 * key of its CSR), so any gateway process can resume it after a crash. `dueAt` is when the worker
 * next acts on it (null: nothing to do, e.g. waiting for the operator); `claimedUntil` keeps two
 * workers off one order.
 */
export const acmeOrders = pgTable(
  'acme_orders',
  {
    certificateId: uuid('certificate_id')
      .primaryKey()
      .references((): AnyPgColumn => sslCertificates.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => acmeAccounts.id, { onDelete: 'restrict' }),
    domains: text('domains').array().notNull(),
    challenge: text('challenge', { enum: ACME_CHALLENGE_TYPES }).notNull(),
    /** dns-01 only; null means manual mode (the operator creates the TXT records). */
    dnsProviderId: uuid('dns_provider_id').references(() => acmeDnsProviders.id, { onDelete: 'restrict' }),
    orderUrl: text('order_url'),
    privateKeySealed: text('private_key_sealed'),
    /** Manual dns-01: when the operator said the TXT records are in place. */
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    /** Failed attempts in a row, for the retry backoff. */
    failures: integer('failures').notNull().default(0),
    dueAt: timestamp('due_at', { withTimezone: true }),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('acme_orders_due_at_idx').on(table.dueAt)],
);

/**
 * Challenges of orders in progress. HTTP-01 answers are read from here by whichever gateway process
 * the CA reaches; DNS-01 rows say which TXT record to create (and remove afterwards).
 */
export const acmeChallenges = pgTable(
  'acme_challenges',
  {
    token: text('token').primaryKey(),
    certificateId: uuid('certificate_id')
      .notNull()
      .references(() => sslCertificates.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ACME_CHALLENGE_TYPES }).notNull(),
    domain: text('domain').notNull(),
    /** HTTP-01: the body to answer. DNS-01: the TXT value. */
    keyAuthorization: text('key_authorization').notNull(),
    /** DNS-01: the record name (`_acme-challenge.<domain>`). */
    recordName: text('record_name'),
    challengeUrl: text('challenge_url').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('acme_challenges_certificate_idx').on(table.certificateId)],
);
