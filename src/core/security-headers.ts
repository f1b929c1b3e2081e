import type { FastifyInstance } from 'fastify';

// Pages sites and the interactive docs render HTML with their own scripts and styles, so they get
// the baseline headers but not the API's lock-everything content security policy.
const HTML_PREFIXES = ['/docs', '/sites/'];

/**
 * The web console's policy (its pages and assets set it themselves): scripts only from the gateway's
 * own files, never inline; inline styles are allowed because the component library sets CSS
 * variables and style attributes at run time; API calls only to the same origin.
 */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

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
      if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', apiPolicy);
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    }
    done(null, payload);
  });
}
