import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../../core/errors.js';
import type { SiteAnswer, SiteRequest } from './site-server.js';

/** Lets a site's scripts run without acting as the gateway's origin. */
const SANDBOX_POLICY = 'sandbox allow-scripts allow-forms allow-popups allow-modals allow-downloads';

/** How an answer is framed where it is served. */
export interface SiteFraming {
  /** Served on the gateway's own origin (`/sites/…`): the sandbox applies and cannot be taken away. */
  gatewayOrigin: boolean;
  /** A deployment reached by its preview URL: `X-Robots-Tag: noindex`, which cannot be taken away. */
  preview: boolean;
}

/** The final headers of a site's answer, applied after the gateway's own (see `registerSiteHeaders`). */
interface HeaderPlan {
  set: Map<string, string | string[]>;
  remove: Set<string>;
  /** On a site's own host, the API's lock-everything content security policy does not apply. */
  dropApiPolicy: boolean;
}

const plans = new WeakMap<FastifyRequest, HeaderPlan>();

/**
 * Registers, in the plugin that serves sites, the hook that gives a site's answers their final
 * headers. It runs after the gateway-wide security headers (a plugin's hooks follow its parent's),
 * so `_headers` rules can replace defaults such as `X-Frame-Options`.
 */
export function registerSiteHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const plan = plans.get(request);
    if (plan) {
      if (plan.dropApiPolicy) reply.removeHeader('content-security-policy');
      for (const name of plan.remove) reply.removeHeader(name);
      for (const [name, value] of plan.set) reply.header(name, value);
    }
    done(null, payload);
  });
}

/** The headers of a file answer: the defaults, then the deployment's `_headers` rules. */
function headerPlan(answer: Extract<SiteAnswer, { kind: 'file' }>, framing: SiteFraming, sandbox: boolean) {
  const set = new Map<string, string | string[]>([
    ['etag', `"${answer.file.sha256}"`],
    ['cache-control', 'public, max-age=0, must-revalidate'],
    ['x-content-type-options', 'nosniff'],
  ]);
  // Headers the gateway keeps whatever the rules say: a rule's value is sent beside them.
  const kept = new Map<string, string>();
  if (framing.gatewayOrigin && sandbox) kept.set('content-security-policy', SANDBOX_POLICY);
  if (framing.preview) kept.set('x-robots-tag', 'noindex');
  const remove = new Set<string>();
  for (const name of answer.headers.detach) {
    if (kept.has(name)) continue;
    set.delete(name);
    remove.add(name);
  }
  for (const [name, value] of answer.headers.set) set.set(name, value);
  for (const [name, value] of kept) {
    const added = answer.headers.set.get(name);
    set.set(name, added === undefined ? value : [value, added]);
  }
  return { set, remove, dropApiPolicy: !framing.gatewayOrigin };
}

/**
 * The parts of a site server's question that come from the request line and headers, for the file
 * at `below` (the percent-decoded path below the site root). The router ignores trailing slashes,
 * so whether a directory was asked for is read from the URL.
 */
export function fileRequestOf(
  request: FastifyRequest,
  below: string,
): Omit<SiteRequest, 'site' | 'deploymentId' | 'root'> & { slashed: boolean } {
  const [pathname, query] = request.url.split('?', 2) as [string, string?];
  const slashed = pathname.endsWith('/');
  return {
    path: slashed && below !== '' && !below.endsWith('/') ? `${below}/` : below,
    requestPath: pathname.replace(/\/+$/, ''),
    query: query ? `?${query}` : '',
    ifNoneMatch: request.headers['if-none-match'],
    head: request.method === 'HEAD',
    slashed,
  };
}

/** Sends a site server's answer: the file (or 304), a redirect, or the JSON 404 with its reason. */
export async function replyWithSite(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: SiteAnswer,
  framing: SiteFraming,
  sandbox: boolean,
) {
  if (answer.kind === 'missing') throw notFound({ reason: answer.reason });
  if (answer.kind === 'redirect') return reply.redirect(answer.location, answer.status);
  plans.set(request, headerPlan(answer, framing, sandbox));
  if (answer.notModified) return reply.status(304).send();
  reply.status(answer.status);
  reply.type(answer.file.contentType);
  reply.header('content-length', answer.file.sizeBytes);
  if (answer.body === undefined) return reply.send();
  return reply.send(answer.body);
}
