import type { FastifyInstance } from 'fastify';

// Pages sites and the interactive docs render HTML with their own scripts and styles, so they get
// the baseline headers but not the API's lock-everything content security policy.
const HTML_PREFIXES = ['/docs', '/sites/'];

/**
 * Headers on every answer: no MIME sniffing, no framing, no referrer, and for API answers a content
 * security policy that forbids everything (JSON never needs to load anything). HSTS when the
 * deployment says it is served over HTTPS. No CORS headers are sent: cross-origin browser access is
 * off unless a reverse proxy in front adds it deliberately.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: { https: boolean }): void {
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cross-origin-opener-policy', 'same-origin');
    if (options.https) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    if (!HTML_PREFIXES.some((prefix) => request.url.startsWith(prefix))) {
      reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
      reply.header('cache-control', reply.getHeader('cache-control') ?? 'no-store');
    }
  });
}
