import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';

/**
 * Uploaded SSL certificates. The certificate and its chain are public and kept as PEM; the private key
 * is kept only sealed (AES-256-GCM under the master key, see SecretBox), as PKCS#8 once decrypted.
 */
export const sslCertificates = pgTable(
  'ssl_certificates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull().unique(),
    certificatePem: text('certificate_pem').notNull(),
    /** Intermediates (and optionally the root), leaf's issuer first; empty when none was given. */
    chainPem: text('chain_pem').notNull().default(''),
    privateKeySealed: text('private_key_sealed').notNull(),
    subject: text('subject').notNull(),
    issuer: text('issuer').notNull(),
    serialNumber: text('serial_number').notNull(),
    sans: text('sans').array().notNull(),
    notBefore: timestamp('not_before', { withTimezone: true }).notNull(),
    notAfter: timestamp('not_after', { withTimezone: true }).notNull(),
    fingerprintSha256: text('fingerprint_sha256').notNull(),
    keyType: text('key_type').notNull(),
    keyBits: integer('key_bits'),
    curve: text('curve'),
    chainLength: integer('chain_length').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('ssl_certificates_not_after_idx').on(table.notAfter)],
);
