import type { FastifyInstance } from 'fastify';

// Pages sites and the interactive docs render HTML with their own scripts and styles, so they get
// the baseline headers but not the API's lock-everything content security policy.
const HTML_PREFIXES = ['/docs', '/sites/'];

/**
 * Headers on every answer (and the request id, so a caller can quote it): no MIME sniffing, no
 * framing, no referrer, and for API answers a content security policy that forbids everything (JSON
 * never needs to load anything). HSTS when the deployment says it is served over HTTPS. No CORS
 * headers are sent: cross-origin browser access is off unless a reverse proxy in front adds it
 * deliberately.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: { https: boolean }): void {
  const everywhere: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    ...(options.https ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
  const apiPolicy = "default-src 'none'; frame-ancestors 'none'";
  // A callback hook (not async): this runs on every answer, so it allocates no promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.headers(everywhere);
    reply.header('x-request-id', request.id);
    if (!HTML_PREFIXES.some((prefix) => request.url.startsWith(prefix))) {
      reply.header('content-security-policy', apiPolicy);
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    }
    done(null, payload);
  });
}
