import { Type } from 'typebox';
import type { GatewayModule } from '../../core/app.js';
import { areaAccess } from '../../core/auth/area-access.js';
import { DataOf, IdParams, PageOf, Success } from '../../core/http-schemas.js';
import type { CertificateService } from './certificates.js';
import {
  Certificate,
  CertificateDownload,
  CertificateListQuery,
  CertificateMaterial,
  CertificateUpload,
} from './schemas.js';

const { view, manage } = areaAccess('certificates');

const tags = ['certificates'];

/** SSL certificates uploaded with their private key (`certificates:view` / `certificates:manage`). */
export const certificateRoutes: GatewayModule<{ certificates: CertificateService }> = async (
  app,
  { certificates },
) => {
  app.post(
    '/upload',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Upload a certificate with its private key (and chain)',
        body: CertificateUpload,
        response: { 201: DataOf(Certificate) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await certificates.upload(request.actor, request.body) }),
  );

  app.get(
    '',
    {
      config: view,
      schema: {
        tags,
        summary: 'List certificates',
        querystring: CertificateListQuery,
        response: { 200: PageOf(Certificate) },
      },
    },
    async (request) => certificates.list(request.actor, request.query),
  );

  app.get(
    '/:id',
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
    '/:id',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Replace the certificate, key and chain under the same name (renewal)',
        params: IdParams,
        body: CertificateMaterial,
        response: { 200: DataOf(Certificate) },
      },
    },
    async (request) => ({ data: await certificates.replace(request.actor, request.params.id, request.body) }),
  );

  app.delete(
    '/:id',
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
    '/:id/download',
    {
      config: { ...view, errors: [409] },
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
              'application/json': { schema: DataOf(CertificateDownload) },
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
