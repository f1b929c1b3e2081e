import { boolean, file, integer, section, text } from './settings.js';

export const httpsSettings = section('HTTPS', {
  port: integer('HTTPS_PORT', {
    min: 0,
    max: 65535,
    unset: 'unset (plain HTTP only)',
    doc: "Start a TLS listener on this port (same app, same `HOST`), its certificate chosen per SNI name from the stored certificates (a verified pages domain's chosen one first); `0` → a free port, to which the redirect then points",
  }),
  defaultCertificate: text('INFRAGATE_TLS_DEFAULT_CERTIFICATE', {
    accepts: 'a certificate name or id',
    doc: 'The stored certificate served when no certificate carries the SNI name (and to clients that send none)',
  }),
  redirect: boolean('INFRAGATE_HTTPS_REDIRECT', {
    default: false,
    doc: "Answer plain-HTTP requests with a 308 to HTTPS (except `/.well-known/acme-challenge/` and the pages domain proofs at `/.well-known/infragate-domain/`). The API is redirected too: turn it on once a certificate for the gateway's host name is stored",
  }),
});

/** ACME issuance and renewal of certificates. */
export const acmeSettings = section('Certificates (ACME)', {
  directoryUrl: text('INFRAGATE_ACME_DIRECTORY_URL', {
    default: 'https://acme-v02.api.letsencrypt.org/directory',
    accepts: 'an https:// URL',
    parse: (given) => (given.startsWith('https://') ? given : undefined),
    doc: "ACME directory used when an order names none (Let's Encrypt production by default)",
  }),
  trustedCaFile: file('INFRAGATE_ACME_CA_FILE', {
    doc: "PEM file of extra CAs trusted for ACME directories only, besides the system roots (a private CA, or Pebble's in tests)",
  }),
  intervalMs: integer('INFRAGATE_ACME_INTERVAL_MS', {
    default: 10_000,
    min: 50,
    max: 3_600_000,
    doc: 'How often the ACME worker advances orders and looks for renewals due',
  }),
  retryBaseSeconds: integer('INFRAGATE_ACME_RETRY_BASE_SECONDS', {
    default: 3600,
    min: 1,
    max: 7 * 86_400,
    doc: 'First retry delay after a failed order or renewal; doubles per failure up to `INFRAGATE_ACME_RETRY_MAX_SECONDS`',
  }),
  retryMaxSeconds: integer('INFRAGATE_ACME_RETRY_MAX_SECONDS', {
    default: 86_400,
    min: 1,
    max: 30 * 86_400,
    doc: 'Longest retry delay after failed orders or renewals',
  }),
  renewBeforeDays: integer('INFRAGATE_ACME_RENEW_BEFORE_DAYS', {
    default: 30,
    min: 1,
    max: 365,
    doc: 'Renew this long before expiry (at 2/3 of the lifetime for shorter certificates)',
  }),
});
