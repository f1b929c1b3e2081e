import { type Static, Type } from 'typebox';
import { Name, SearchText, Timestamp, Uuid } from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';

/** The shapes of the certificates area: route schemas, and through `Static` the service's types. */

export const Certificate = Type.Object({
  id: Uuid(),
  name: Type.String(),
  subject: Type.String({ description: 'Distinguished name, e.g. `C=DE, O=Example, CN=app.example.com`' }),
  issuer: Type.String(),
  serialNumber: Type.String({ description: 'Hexadecimal' }),
  sans: Type.Array(Type.String(), {
    description: 'Subject alternative names: host names and IP addresses bare, other kinds prefixed',
  }),
  notBefore: Timestamp,
  notAfter: Timestamp,
  fingerprintSha256: Type.String({ description: 'SHA-256 of the DER certificate, colon-separated hex' }),
  keyType: Type.String({ description: 'rsa, rsa-pss, ec, ed25519, ed448, dsa' }),
  keyBits: Type.Union([Type.Integer(), Type.Null()]),
  curve: Type.Union([Type.String(), Type.Null()], { description: 'P-256, P-384, P-521, Ed25519…' }),
  chainLength: Type.Integer({ description: 'Certificates in the chain, not counting the leaf' }),
  expiresInDays: Type.Integer({ description: 'Whole days until notAfter; negative once expired' }),
  expired: Type.Boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

const Pem = (description: string) => Type.String({ maxLength: 65_536, description });

export const MaterialFields = {
  certificatePem: Pem('The leaf certificate, one PEM block'),
  privateKeyPem: Pem('PKCS#8, PKCS#1 or SEC1 PEM, possibly encrypted'),
  chainPem: Type.Optional(
    Type.String({ maxLength: 262_144, description: "Intermediates in order, the leaf's issuer first" }),
  ),
  privateKeyPassphrase: Type.Optional(
    Type.String({ maxLength: 1024, description: 'Decrypts an encrypted key; never stored' }),
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

export type Certificate = Static<typeof Certificate>;
export type CertificateDownload = Static<typeof CertificateDownload>;
export type CertificateMaterial = Static<typeof CertificateMaterial>;
export type CertificateUpload = Static<typeof CertificateUpload>;
export type CertificateListQuery = Static<typeof CertificateListQuery>;
