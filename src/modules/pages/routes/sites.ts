import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayModule } from '../../../core/app.js';
import { notFound } from '../../../core/errors.js';
import { SiteFileParams } from '../schemas.js';
import type { SiteServer } from '../site-server.js';

const open = { public: true } as const;
const tags = ['pages'];

/** Lets a site's scripts run without acting as the gateway's origin. */
const SANDBOX_POLICY = 'sandbox allow-scripts allow-forms allow-popups allow-modals allow-downloads';

/** Public serving of each project's production deployment under `/sites/<slug>/` (no authentication). */
export const siteRoutes: GatewayModule<{ sites: SiteServer; sandbox: boolean }> = async (
  app,
  { sites, sandbox },
) => {
  const sandboxPolicy = sandbox ? SANDBOX_POLICY : undefined;

  app.get(
    '/:slug',
    {
      config: open,
      schema: { tags, summary: 'A site root (redirects to the trailing slash)', hide: true },
    },
    async (request, reply) => {
      const [pathname, query = ''] = request.url.split('?', 2) as [string, string?];
      if (pathname.endsWith('/')) return serveSite(request, reply, '');
      return reply.redirect(`${pathname}/${query ? `?${query}` : ''}`, 301);
    },
  );

  app.get(
    '/:slug/*',
    {
      config: open,
      schema: {
        tags,
        summary: "Serve a file of a project's production deployment (no authentication)",
        params: SiteFileParams,
      },
    },
    async (request, reply) => serveSite(request, reply, request.params['*']),
  );

  /** Translates a request into the site server's question and its answer into the reply. */
  async function serveSite(request: FastifyRequest, reply: FastifyReply, filePath: string) {
    const { slug } = request.params as { slug: string };
    const [pathname, query] = request.url.split('?', 2) as [string, string?];
    // The router ignores trailing slashes, so whether a directory was asked for is read from the URL.
    const directory = pathname.endsWith('/') && !filePath.endsWith('/');
    const answer = await sites.serve({
      slug,
      path: directory ? `${filePath}/` : filePath,
      requestPath: pathname.replace(/\/+$/, ''),
      query: query ? `?${query}` : '',
      ifNoneMatch: request.headers['if-none-match'],
      head: request.method === 'HEAD',
    });
    if (answer.kind === 'missing') throw notFound({ reason: answer.reason, slug });
    if (answer.kind === 'redirect') return reply.redirect(answer.location, 301);
    const { file } = answer;
    reply.header('etag', `"${file.sha256}"`);
    reply.header('cache-control', 'public, max-age=0, must-revalidate');
    reply.header('x-content-type-options', 'nosniff');
    if (sandboxPolicy) reply.header('content-security-policy', sandboxPolicy);
    if (answer.notModified) return reply.status(304).send();
    reply.status(answer.status);
    reply.type(file.contentType);
    reply.header('content-length', file.sizeBytes);
    if (answer.body === undefined) return reply.send();
    return reply.send(answer.body);
  }
};
