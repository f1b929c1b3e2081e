import type { IncomingMessage } from 'node:http';
import type { GatewayModule } from '../../../core/app.js';
import { notFound } from '../../../core/errors.js';
import type { DomainService } from '../domains.js';
import { DomainTokenParams } from '../schemas.js';
import type { SiteHosts } from '../site-hosts.js';
import { fileRequestOf, registerSiteHeaders, replyWithSite } from '../site-reply.js';
import type { SiteServer } from '../site-server.js';

const open = { public: true } as const;
const tags = ['pages'];

/** The router constraint that sends every request whose Host names a site to the site. */
const SITE_HOST = 'pagesSiteHost';
const SITE = 'site';

/** On a site's host these paths stay the gateway's: ACME challenges and the domain ownership token. */
const GATEWAY_PATHS = ['/.well-known/acme-challenge/', '/.well-known/infragate-domain/'];

const SITE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * Serving by Host: custom domains and names under the pages base domain. A router constraint
 * decides before any route is chosen, so on a site's host the whole path space belongs to the site
 * (`/api/…` and `/auth/…` included) except `GATEWAY_PATHS`; every other host sees the gateway as
 * before. Also answers the HTTP ownership token of custom domains.
 */
export const siteHostRoutes: GatewayModule<{
  sites: SiteServer;
  hosts: SiteHosts;
  domains: DomainService;
  sandbox: boolean;
}> = async (app, { sites, hosts, domains, sandbox }) => {
  registerSiteHeaders(app);

  const strategy = {
    name: SITE_HOST,
    mustMatchWhenDerived: true,
    storage() {
      const handlers = new Map<string, unknown>();
      return {
        get: (value: string) => handlers.get(value) ?? null,
        set: (value: string, store: unknown) => {
          handlers.set(value, store);
        },
      };
    },
    // Three parameters make it asynchronous (the router's types know only the synchronous form).
    deriveConstraint(
      request: IncomingMessage,
      _context: unknown,
      done: (error: Error | null, value?: string) => void,
    ) {
      const url = request.url ?? '/';
      if (GATEWAY_PATHS.some((prefix) => url.startsWith(prefix))) return done(null, undefined);
      const known = hosts.knownTargetOf(request.headers.host);
      if (known) return done(null, known.target === undefined ? undefined : SITE);
      hosts.targetOf(request.headers.host).then(
        (target) => done(null, target === undefined ? undefined : SITE),
        (error: Error) => done(error),
      );
    },
  };
  app.addConstraintStrategy(strategy as unknown as Parameters<typeof app.addConstraintStrategy>[0]);

  app.route({
    method: [...SITE_METHODS],
    url: '/*',
    constraints: { [SITE_HOST]: SITE },
    config: open,
    schema: { hide: true },
    handler: async (request, reply) => {
      const target = await hosts.targetOf(request.headers.host);
      // Sites are files: only reading them is served.
      if (!target || (request.method !== 'GET' && request.method !== 'HEAD'))
        throw notFound({ reason: target ? 'FILE_NOT_FOUND' : 'SITE_NOT_FOUND' });
      const file = fileRequestOf(request, (request.params as { '*': string })['*']);
      const answer = await sites.serve({
        ...file,
        site: target.site,
        deploymentId: target.deploymentId,
        root: '',
      });
      return replyWithSite(
        request,
        reply,
        answer,
        { gatewayOrigin: false, preview: target.preview },
        sandbox,
      );
    },
  });

  app.get(
    '/.well-known/infragate-domain/:token',
    {
      config: open,
      schema: {
        tags,
        summary: 'The HTTP ownership proof of a custom domain, answered on that domain (no authentication)',
        description:
          'Answers text/plain `<token>.<domainId>` when the request names the domain as its Host, so a ' +
          'domain pointed at the gateway proves itself.',
        params: DomainTokenParams,
      },
    },
    async (request, reply) => {
      const proof = await domains.httpProof(request.params.token, request.headers.host);
      return reply.type('text/plain; charset=utf-8').send(proof);
    },
  );
};
