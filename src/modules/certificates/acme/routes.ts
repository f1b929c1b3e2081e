import { Type } from 'typebox';
import type { GatewayModule } from '../../../core/app.js';
import { areaAccess } from '../../../core/auth/area-access.js';
import { notFound } from '../../../core/errors.js';
import { DataOf, IdParams, PageOf, Success } from '../../../core/http-schemas.js';
import {
  AcmeOrderRequest,
  Certificate,
  DnsProvider,
  DnsProviderCreate,
  DnsProviderListQuery,
} from '../schemas.js';
import type { ChallengeStore } from './challenges.js';
import type { DnsProviderService } from './dns-providers.js';
import type { AcmeOrderService } from './order-service.js';

const { view, manage } = areaAccess('certificates');

const tags = ['certificates'];
const PROVIDERS = '/dns-providers';

/** ACME ordering and DNS providers for dns-01, under `/api/ssl-certificates`. */
export const acmeRoutes: GatewayModule<{
  orders: AcmeOrderService;
  providers: DnsProviderService;
}> = async (app, { orders, providers }) => {
  app.post(
    '/acme',
    {
      config: { ...manage, errors: [404, 409] },
      schema: {
        tags,
        summary: 'Order a certificate from an ACME CA',
        description:
          'Answers 202 with the certificate in status `pending`; ordering runs in the background and ' +
          '`GET /api/ssl-certificates/{id}` shows it progress to `valid` or `failed` (with `lastError`).',
        body: AcmeOrderRequest,
        response: { 202: DataOf(Certificate) },
      },
    },
    async (request, reply) =>
      reply.status(202).send({ data: await orders.order(request.actor, request.body) }),
  );

  app.post(
    '/:id/acme/confirm',
    {
      config: { ...manage, errors: [409] },
      schema: {
        tags,
        summary: 'Manual dns-01: confirm that the TXT records are in place',
        params: IdParams,
        response: { 200: DataOf(Certificate) },
      },
    },
    async (request) => ({ data: await orders.confirm(request.actor, request.params.id) }),
  );

  app.post(
    '/:id/acme/renew',
    {
      config: { ...manage, errors: [409] },
      schema: {
        tags,
        summary: 'Renew an ACME certificate now (or retry a failed order now)',
        params: IdParams,
        response: { 202: DataOf(Certificate) },
      },
    },
    async (request, reply) =>
      reply.status(202).send({ data: await orders.renew(request.actor, request.params.id) }),
  );

  app.get(
    PROVIDERS,
    {
      config: view,
      schema: {
        tags,
        summary: 'List DNS providers for dns-01',
        querystring: DnsProviderListQuery,
        response: { 200: PageOf(DnsProvider) },
      },
    },
    async (request) => providers.list(request.query),
  );

  app.post(
    PROVIDERS,
    {
      config: { ...manage, errors: [409] },
      schema: {
        tags,
        summary: 'Add a DNS provider (RFC 2136 with a TSIG key) for dns-01',
        body: DnsProviderCreate,
        response: { 201: DataOf(DnsProvider) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await providers.create(request.actor, request.body) }),
  );

  app.get(
    `${PROVIDERS}/:id`,
    {
      config: view,
      schema: {
        tags,
        summary: 'Get a DNS provider',
        params: IdParams,
        response: { 200: DataOf(DnsProvider) },
      },
    },
    async (request) => ({ data: await providers.get(request.params.id) }),
  );

  app.delete(
    `${PROVIDERS}/:id`,
    {
      config: { ...manage, errors: [409] },
      schema: {
        tags,
        summary: 'Delete a DNS provider that no ACME certificate uses',
        params: IdParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await providers.remove(request.actor, request.params.id);
      return { success: true };
    },
  );
};

/** The public HTTP-01 responder, at the root where the ACME CA looks for it. */
export const acmeChallengeRoutes: GatewayModule<{ challenges: ChallengeStore }> = async (
  app,
  { challenges },
) => {
  app.get(
    '/.well-known/acme-challenge/:token',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'HTTP-01 challenge answer (for the ACME CA)',
        params: Type.Object({ token: Type.String({ pattern: '^[A-Za-z0-9_-]{1,256}$' }) }),
        response: { 200: { content: { 'text/plain': { schema: Type.String() } } } },
      },
    },
    async (request, reply) => {
      const answer = await challenges.httpAnswer(request.params.token);
      if (answer === undefined) throw notFound();
      return reply.type('text/plain').send(answer);
    },
  );
};
