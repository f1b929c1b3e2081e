import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { GatewayModule } from '../../../core/app.js';
import { SiteFileParams } from '../schemas.js';
import { fileRequestOf, registerSiteHeaders, replyWithSite } from '../site-reply.js';
import type { SiteServer } from '../site-server.js';

const open = { public: true } as const;
const tags = ['pages'];
/** A file of a site: its bytes, sent as they are stored. */
const SiteFile = Type.Unsafe<Buffer>({ format: 'binary', description: 'the bytes of the file' });

/** `~<deploymentId>` as the first segment below a site names a preview (any deployment of the project). */
const PREVIEW_SEGMENT = /^~([0-9a-fA-F-]{36})$/;

/**
 * Public serving under `/sites/<slug>/` (no authentication): the production deployment, and any
 * deployment at `/sites/<slug>/~<deploymentId>/` (a preview, marked noindex).
 */
export const siteRoutes: GatewayModule<{ sites: SiteServer; sandbox: boolean }> = async (
  app,
  { sites, sandbox },
) => {
  registerSiteHeaders(app);

  app.get(
    '/:slug',
    {
      config: open,
      schema: { tags, summary: 'A site root (redirects to the trailing slash)', hide: true },
    },
    async (request, reply) => {
      const [pathname] = request.url.split('?', 1) as [string];
      if (pathname.endsWith('/')) return serveSite(request, reply, '');
      return redirectToDirectory(request, reply);
    },
  );

  app.get(
    '/:slug/*',
    {
      config: open,
      schema: {
        tags,
        summary:
          'Serve a file of a project (production, or a preview at ~<deploymentId>/; no authentication)',
        description:
          'A missing file is 404: the site’s own 404 page when it has one, else the error envelope.',
        params: SiteFileParams,
        response: {
          200: { description: 'The file, in its own content type', content: { '*/*': { schema: SiteFile } } },
          304: Type.Null({ description: 'Not modified: the `If-None-Match` ETag is still current' }),
          '3xx': Type.Null({ description: 'A redirect of the site’s `_redirects` rules (`Location`)' }),
        },
      },
    },
    async (request, reply) => serveSite(request, reply, request.params['*']),
  );

  function redirectToDirectory(request: FastifyRequest, reply: FastifyReply) {
    const [pathname, query] = request.url.split('?', 2) as [string, string?];
    return reply.redirect(`${pathname}/${query ? `?${query}` : ''}`, 301);
  }

  /** Translates a request into the site server's question and its answer into the reply. */
  async function serveSite(request: FastifyRequest, reply: FastifyReply, filePath: string) {
    const { slug } = request.params as { slug: string };
    const [first = '', ...rest] = filePath.split('/');
    const preview = PREVIEW_SEGMENT.exec(first)?.[1]?.toLowerCase();
    const { slashed, ...file } = fileRequestOf(request, preview === undefined ? filePath : rest.join('/'));
    if (preview !== undefined && rest.length === 0 && !slashed) return redirectToDirectory(request, reply);
    const answer = await sites.serve({
      ...file,
      site: { slug },
      deploymentId: preview,
      root: `/sites/${slug}${preview === undefined ? '' : `/~${preview}`}`,
    });
    return replyWithSite(
      request,
      reply,
      answer,
      { gatewayOrigin: true, preview: preview !== undefined },
      sandbox,
    );
  }
};
