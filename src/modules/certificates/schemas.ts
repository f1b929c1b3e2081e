import { type Static, Type } from 'typebox';
import { ACME_EMAIL_PATTERN } from '../../core/email-address.js';
import {
  Name,
  NamedObject,
  Nullable,
  NullableTimestamp,
  SearchText,
  StringEnum,
  Timestamp,
  Uuid,
  WriteOnly,
} from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';
import {
  ACME_CHALLENGE_TYPES,
  CERTIFICATE_SOURCES,
  CERTIFICATE_STATUSES,
  DNS_PROVIDER_KINDS,
  TSIG_ALGORITHMS,
} from '../../db/schema/index.js';

/** The shapes of the certificates area: route schemas, and through `Static` the service's types. */

/** A TXT record the operator creates in manual dns-01 mode. */
export const DnsRecord = Type.Object({
  name: Type.String({ description: 'e.g. `_acme-challenge.app.example.com`' }),
  type: Type.Literal('TXT'),
  value: Type.String(),
});

export const AcmeSettings = Type.Object({
  domains: Type.Array(Type.String()),
  challenge: StringEnum(ACME_CHALLENGE_TYPES),
  accountEmail: Type.String(),
  directoryUrl: Type.String(),
  dnsProviderId: Nullable(Uuid()),
  dnsRecords: Type.Array(DnsRecord, {
    description: 'Manual dns-01: the TXT records to create before confirming; empty otherwise',
  }),
  awaitingConfirmation: Type.Boolean({
    description: 'Manual dns-01: the order waits for POST /api/ssl-certificates/{id}/acme/confirm',
  }),
});

export const Certificate = NamedObject('Certificate', {
  id: Uuid(),
  name: Type.String(),
  subject: Nullable(
    Type.String({ description: 'Distinguished name, e.g. `C=DE, O=Example, CN=app.example.com`' }),
  ),
  issuer: Nullable(Type.String()),
  serialNumber: Nullable(Type.String({ description: 'Hexadecimal' })),
  sans: Nullable(
    Type.Array(Type.String(), {
      description: 'Subject alternative names: host names and IP addresses bare, other kinds prefixed',
    }),
  ),
  notBefore: NullableTimestamp,
  notAfter: NullableTimestamp,
  fingerprintSha256: Nullable(
    Type.String({ description: 'SHA-256 of the DER certificate, colon-separated hex' }),
  ),
  keyType: Nullable(Type.String({ description: 'rsa, rsa-pss, ec, ed25519, ed448, dsa' })),
  keyBits: Type.Union([Type.Integer(), Type.Null()]),
  curve: Type.Union([Type.String(), Type.Null()], { description: 'P-256, P-384, P-521, Ed25519…' }),
  chainLength: Nullable(Type.Integer({ description: 'Certificates in the chain, not counting the leaf' })),
  expiresInDays: Nullable(Type.Integer({ description: 'Whole days until notAfter; negative once expired' })),
  expired: Nullable(Type.Boolean()),
  source: StringEnum(CERTIFICATE_SOURCES),
  status: StringEnum(
    CERTIFICATE_STATUSES,
    'pending: first ACME order running; valid; renewing: ACME renewal running or retrying; failed',
  ),
  lastError: Nullable(Type.String({ description: "The CA's reason for the last failure" })),
  nextRenewalAt: Type.Union([Timestamp, Type.Null()], {
    description: 'ACME only: when the next renewal (or retry) is due',
  }),
  acme: Nullable(AcmeSettings),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

const Pem = (description: string) => Type.String({ maxLength: 65_536, description });

export const MaterialFields = {
  certificatePem: Pem('The leaf certificate, one PEM block'),
  privateKeyPem: WriteOnly(Pem('PKCS#8, PKCS#1 or SEC1 PEM, possibly encrypted')),
  chainPem: Type.Optional(
    Type.String({ maxLength: 262_144, description: "Intermediates in order, the leaf's issuer first" }),
  ),
  privateKeyPassphrase: Type.Optional(
    WriteOnly(Type.String({ maxLength: 1024, description: 'Decrypts an encrypted key; never stored' })),
  ),
  allowExpired: Type.Optional(Type.Boolean({ default: false })),
  allowNotYetValid: Type.Optional(Type.Boolean({ default: false })),
};

export const CertificateDownload = Type.Object({
  id: Uuid(),
  name: Type.String(),
  certificatePem: Type.String(),
  chainPem: Type.String(),
  fullChainPem: Type.String({ description: 'Certificate followed by the chain' }),
});

/** Certificate, key and chain as uploaded or replaced. */
export const CertificateMaterial = Type.Object(MaterialFields);
export const CertificateUpload = Type.Object({ name: Name, ...MaterialFields });

export const CertificateListQuery = Type.Object({
  ...PaginationQueryFields,
  expiringWithinDays: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 36_500,
      description: 'Only certificates whose notAfter is at most this many days away (expired included)',
    }),
  ),
  q: SearchText(),
  sort: Type.Optional(Type.Union([Type.Literal('name'), Type.Literal('notAfter')], { default: 'name' })),
});

/** A DNS name as a CA takes it: letters, digits and hyphens in labels, a leading `*.` for a wildcard. */
const DomainName = Type.String({
  maxLength: 253,
  pattern:
    '^(\\*\\.)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$',
  description: 'A host name, or `*.` and a domain for a wildcard (dns-01 only)',
});

export const AcmeOrderRequest = Type.Object({
  name: Name,
  domains: Type.Array(DomainName, { minItems: 1, maxItems: 100 }),
  challenge: StringEnum(ACME_CHALLENGE_TYPES),
  accountEmail: Type.String({ pattern: ACME_EMAIL_PATTERN, maxLength: 254 }),
  directoryUrl: Type.Optional(
    Type.String({
      format: 'uri',
      maxLength: 2048,
      description: "An RFC 8555 directory (https only); the configured default (Let's Encrypt) when absent",
    }),
  ),
  dnsProviderId: Type.Optional(
    Uuid('dns-01: the DNS provider that creates the TXT records; absent means manual mode'),
  ),
});

export const DnsProvider = NamedObject('DnsProvider', {
  id: Uuid(),
  name: Type.String(),
  kind: StringEnum(DNS_PROVIDER_KINDS),
  server: Type.String(),
  port: Type.Integer(),
  zone: Type.String(),
  tsigKeyName: Type.String(),
  tsigAlgorithm: StringEnum(TSIG_ALGORITHMS),
  ttl: Type.Integer(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const DnsProviderCreate = Type.Object({
  name: Name,
  kind: StringEnum(DNS_PROVIDER_KINDS, 'rfc2136: dynamic updates (BIND, Knot, PowerDNS) signed with TSIG'),
  server: Type.String({
    minLength: 1,
    maxLength: 253,
    pattern: '^[A-Za-z0-9.:-]+$',
    description: 'Host name or address of the primary',
  }),
  port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65_535, default: 53 })),
  zone: Type.String({ ...DomainName, description: 'The zone the updates go to, e.g. `example.com`' }),
  tsigKeyName: Type.String({ minLength: 1, maxLength: 253, pattern: '^[A-Za-z0-9._-]+$' }),
  tsigAlgorithm: Type.Optional(StringEnum(TSIG_ALGORITHMS, undefined, { default: 'hmac-sha256' })),
  tsigSecret: WriteOnly(
    Type.String({
      minLength: 4,
      maxLength: 1024,
      pattern: '^[A-Za-z0-9+/]+={0,2}$',
      description: 'The TSIG key, base64; write-only (sealed at rest, never answered)',
    }),
  ),
  ttl: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400, default: 60 })),
});

export const DnsProviderListQuery = Type.Object({ ...PaginationQueryFields, q: SearchText() });

export type Certificate = Static<typeof Certificate>;
export type AcmeSettings = Static<typeof AcmeSettings>;
export type CertificateDownload = Static<typeof CertificateDownload>;
export type CertificateMaterial = Static<typeof CertificateMaterial>;
export type CertificateUpload = Static<typeof CertificateUpload>;
export type CertificateListQuery = Static<typeof CertificateListQuery>;
export type AcmeOrderRequest = Static<typeof AcmeOrderRequest>;
export type DnsProvider = Static<typeof DnsProvider>;
export type DnsProviderCreate = Static<typeof DnsProviderCreate>;
export type DnsProviderListQuery = Static<typeof DnsProviderListQuery>;
