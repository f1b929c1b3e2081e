import type { TLSSocket } from 'node:tls';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { HttpsConfig } from '../config.js';

/**
 * Paths that stay on plain HTTP: ACME HTTP-01 answers (a CA validates there first) and the pages
 * custom-domain proof (the ownership check asks on port 80 and follows no redirect).
 */
const PLAIN_HTTP_PREFIXES = ['/.well-known/acme-challenge/', '/.well-known/infragate-domain/'];
const HSTS = 'max-age=31536000';

const overTls = (request: FastifyRequest) =>
  (request.raw.socket as TLSSocket | undefined)?.encrypted === true;

/** The port the TLS listener answers on: the configured one, or the one bound for `HTTPS_PORT=0`. */
export class HttpsPort {
  private bound: number | undefined;

  constructor(private readonly configured: number | undefined) {}

  /** The TLS listener is listening on this port. */
  listening(port: number): void {
    this.bound = port;
  }

  /** Undefined while unknown: no listener configured, or a free port not bound yet. */
  get current(): number | undefined {
    return this.bound ?? (this.configured === 0 ? undefined : this.configured);
  }
}

/**
 * With an HTTPS listener (`HTTPS_PORT`): HSTS on answers sent over TLS only (a browser ignores it on
 * plain HTTP, and it must not pin a deployment that serves HTTP alone), and, with
 * `INFRAGATE_HTTPS_REDIRECT`, a 308 from plain HTTP to the same host and path on the HTTPS port,
 * before authentication, except for the paths that must stay on HTTP. `app.httpsPort` is told the
 * bound port by the listener; until a free port is bound there is nowhere to redirect to, so plain
 * HTTP answers as without the redirect.
 */
export function registerHttpsPolicy(app: FastifyInstance, https: HttpsConfig): void {
  const port = new HttpsPort(https.port);
  app.decorate('httpsPort', port);
  if (https.port === undefined) return;
  if (https.redirect) {
    app.addHook('onRequest', (request, reply, done) => {
      const target = port.current;
      if (
        target === undefined ||
        overTls(request) ||
        !request.hostname ||
        PLAIN_HTTP_PREFIXES.some((prefix) => request.url.startsWith(prefix))
      )
        return done();
      reply.redirect(`https://${request.hostname}${target === 443 ? '' : `:${target}`}${request.url}`, 308);
    });
  }
  app.addHook('onSend', (request, reply, payload, done) => {
    if (overTls(request)) reply.header('strict-transport-security', HSTS);
    done(null, payload);
  });
}
