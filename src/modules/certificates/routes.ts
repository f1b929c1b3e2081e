import { Type } from 'typebox';
import type { GatewayModule } from '../../core/app.js';
import {
  DataOf,
  IdParams,
  Name,
  PageOf,
  SearchText,
  Success,
  Timestamp,
  Uuid,
} from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';
import { CertificateService } from './service.js';

const Certificate = Type.Object({
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

const MaterialFields = {
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

const Download = Type.Object({
  id: Uuid(),
  name: Type.String(),
  certificatePem: Type.String(),
  chainPem: Type.String(),
  fullChainPem: Type.String({ description: 'Certificate followed by the chain' }),
});

const view = { scope: 'certificates:view' };
const manage = { scope: 'certificates:manage' };
const tags = ['certificates'];

/** SSL certificates uploaded with their private key (`certificates:view` / `certificates:manage`). */
const certificateRoutes: GatewayModule = async (app) => {
  const certificates = new CertificateService(app.deps.db, app.deps.audit, app.deps.secrets);

  app.post(
    '/api/ssl-certificates/upload',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Upload a certificate with its private key (and chain)',
        body: Type.Object({ name: Name, ...MaterialFields }),
        response: { 201: DataOf(Certificate) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await certificates.upload(request.actor, request.body) }),
  );

  app.get(
    '/api/ssl-certificates',
    {
      config: view,
      schema: {
        tags,
        summary: 'List certificates',
        querystring: Type.Object({
          ...PaginationQueryFields,
          expiringWithinDays: Type.Optional(
            Type.Integer({
              minimum: 0,
              maximum: 36_500,
              description:
                'Only certificates whose notAfter is at most this many days away (expired included)',
            }),
          ),
          q: SearchText(),
          sort: Type.Optional(
            Type.Union([Type.Literal('name'), Type.Literal('notAfter')], { default: 'name' }),
          ),
        }),
        response: { 200: PageOf(Certificate) },
      },
    },
    async (request) => certificates.list(request.query),
  );

  app.get(
    '/api/ssl-certificates/:id',
    {
      config: view,
      schema: {
        tags,
        summary: 'Get a certificate',
        params: IdParams,
        response: { 200: DataOf(Certificate) },
      },
    },
    async (request) => ({ data: await certificates.get(request.params.id) }),
  );

  app.put(
    '/api/ssl-certificates/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Replace the certificate, key and chain under the same name (renewal)',
        params: IdParams,
        body: Type.Object(MaterialFields),
        response: { 200: DataOf(Certificate) },
      },
    },
    async (request) => ({ data: await certificates.replace(request.actor, request.params.id, request.body) }),
  );

  app.delete(
    '/api/ssl-certificates/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Delete a certificate and its key',
        params: IdParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await certificates.remove(request.actor, request.params.id);
      return { success: true };
    },
  );

  app.get(
    '/api/ssl-certificates/:id/download',
    {
      config: view,
      schema: {
        tags,
        summary: 'Download the certificate and its chain (never the key)',
        description: 'PEM (certificate then chain) by default; `?format=json` answers the parts separately.',
        params: IdParams,
        querystring: Type.Object({
          format: Type.Optional(Type.Union([Type.Literal('pem'), Type.Literal('json')], { default: 'pem' })),
        }),
        response: {
          200: {
            content: {
              'application/x-pem-file': { schema: Type.String() },
              'application/json': { schema: DataOf(Download) },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const download = await certificates.download(request.params.id);
      if (request.query.format === 'json') return reply.type('application/json').send({ data: download });
      const filename = `${download.name.replace(/[^A-Za-z0-9._-]+/g, '_')}.pem`;
      return reply
        .type('application/x-pem-file')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .send(download.fullChainPem);
    },
  );
};

export default certificateRoutes;
