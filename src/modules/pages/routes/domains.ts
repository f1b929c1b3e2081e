import type { GatewayModule } from '../../../core/app.js';
import { areaAccess } from '../../../core/auth/area-access.js';
import { DataOf, PageOf, Success } from '../../../core/http-schemas.js';
import type { DomainService } from '../domains.js';
import {
  Domain,
  DomainChanges,
  DomainCheck,
  DomainListQuery,
  DomainParams,
  NewDomain,
  ProjectParams,
} from '../schemas.js';

const { view, manage } = areaAccess('pages');

const tags = ['pages'];

/** A project's custom domains under `/api/pages/:projectId/domains` (`pages:view` / `pages:manage`). */
export const domainRoutes: GatewayModule<{ domains: DomainService }> = async (app, { domains }) => {
  app.get(
    '',
    {
      config: view,
      schema: {
        tags,
        summary: "List a project's custom domains",
        params: ProjectParams,
        querystring: DomainListQuery,
        response: { 200: PageOf(Domain) },
      },
    },
    async (request) => domains.list(request.params.projectId, request.query),
  );

  app.post(
    '',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Add a custom domain (pending until its ownership is verified)',
        params: ProjectParams,
        body: NewDomain,
        response: { 201: DataOf(Domain) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        data: await domains.create(
          request.actor,
          request.params.projectId,
          request.body,
          request.headers.host,
        ),
      }),
  );

  app.get(
    '/:domainId',
    {
      config: view,
      schema: {
        tags,
        summary: 'Get a custom domain',
        params: DomainParams,
        response: { 200: DataOf(Domain) },
      },
    },
    async (request) => ({ data: await domains.get(request.params.projectId, request.params.domainId) }),
  );

  app.patch(
    '/:domainId',
    {
      config: { ...manage, errors: [422] },
      schema: {
        tags,
        summary: 'Choose the stored certificate that serves a custom domain',
        params: DomainParams,
        body: DomainChanges,
        response: { 200: DataOf(Domain) },
      },
    },
    async (request) => ({
      data: await domains.update(
        request.actor,
        request.params.projectId,
        request.params.domainId,
        request.body,
      ),
    }),
  );

  app.post(
    '/:domainId/verify',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Check the ownership of a custom domain now (DNS TXT record, then HTTP token)',
        params: DomainParams,
        querystring: DomainCheck,
        response: { 200: DataOf(Domain) },
      },
    },
    async (request) => ({
      data: await domains.verify(
        request.actor,
        request.params.projectId,
        request.params.domainId,
        request.query,
        request.headers.host,
      ),
    }),
  );

  app.delete(
    '/:domainId',
    {
      config: manage,
      schema: { tags, summary: 'Remove a custom domain', params: DomainParams, response: { 200: Success } },
    },
    async (request) => {
      await domains.remove(request.actor, request.params.projectId, request.params.domainId);
      return { success: true };
    },
  );
};
