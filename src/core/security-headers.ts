import type { FastifyInstance } from 'fastify';

/** Pages sites render HTML with their own scripts and styles: the baseline headers, but no API policy. */
const SITES_PREFIX = '/sites/';
/** The interactive API docs (Swagger UI): a policy of their own (`PagePolicies.docs`). */
const DOCS_PREFIX = '/docs';
const isDocs = (url: string) =>
  url === DOCS_PREFIX || url.startsWith(`${DOCS_PREFIX}/`) || url.startsWith(`${DOCS_PREFIX}?`);

/** A `host[:port]` a CSP source can name: a DNS name or an IPv4 address (CSP has no IPv6 form). */
const SOURCE_HOST = /^[a-z0-9.-]+(?::\d{1,5})?$/i;

/**
 * The content security policies of the gateway's own pages: the web console and the API docs.
 * `script-src` names their asset paths, not `'self'`: the gateway's origin also serves pages sites
 * under `/sites/`, whose scripts must never run as the console (an injected
 * `<script src="/sites/…">` is refused). A path needs an origin in CSP, so each policy names the
 * gateway at `INFRAGATE_PUBLIC_URL` and at the host the request named, both without a scheme: a
 * scheme-less source matches the page's own scheme and its upgrade to https, whatever proxy
 * terminates TLS in front.
 */
export class PagePolicies {
  private readonly publicHost: string | undefined;

  constructor(publicUrl: string) {
    const { host } = new URL(publicUrl);
    this.publicHost = SOURCE_HOST.test(host) ? host : undefined;
  }

  /**
   * The console's policy (its pages and assets set it themselves): scripts only from its bundle's
   * files, never inline; inline styles are allowed because the component library sets CSS variables
   * and style attributes at run time; API calls only to the same origin.
   */
  console(hostHeader: string | undefined): string {
    return [
      "default-src 'self'",
      `script-src ${this.sources(hostHeader, '/assets/')}`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "font-src 'self'",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join('; ');
  }

  /**
   * Swagger UI's policy: its bundled scripts and styles under `/docs/static/` (it inlines no script,
   * but applies inline styles, which a browser refuses without `'unsafe-inline'`), its icons as
   * data: images, the API document and "try it out" calls to the gateway (at the public URL the
   * document names as its server, too).
   */
  docs(hostHeader: string | undefined): string {
    const statics = this.sources(hostHeader, `${DOCS_PREFIX}/static/`);
    return [
      "default-src 'none'",
      `script-src ${statics}`,
      `style-src ${statics} 'unsafe-inline'`,
      "img-src 'self' data:",
      `connect-src 'self'${this.publicHost ? ` ${this.publicHost}` : ''}`,
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; ');
  }

  /**
   * `path` of the gateway as CSP sources. A page reached at a host no source can name (an IPv6
   * address, or a `Host` that is no host) falls back to `'self'` rather than break.
   */
  private sources(hostHeader: string | undefined, path: string): string {
    const sources = new Set<string>();
    if (this.publicHost) sources.add(`${this.publicHost}${path}`);
    const host = hostHeader?.toLowerCase();
    sources.add(host && SOURCE_HOST.test(host) ? `${host}${path}` : "'self'");
    return [...sources].join(' ');
  }
}

/**
 * Headers on every answer (and the request id, so a caller can quote it): no MIME sniffing, no
 * framing, no referrer, and for API answers a content security policy that forbids everything (JSON
 * never needs to load anything); the docs get theirs. HSTS when the deployment says it is served over
 * HTTPS. No CORS headers are sent: cross-origin browser access is off unless a reverse proxy in front
 * adds it deliberately.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  options: { https: boolean; policies: PagePolicies },
): void {
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
    if (isDocs(request.url)) {
      reply.header('content-security-policy', options.policies.docs(request.headers.host));
    } else if (!request.url.startsWith(SITES_PREFIX)) {
      if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', apiPolicy);
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    }
    done(null, payload);
  });
}
