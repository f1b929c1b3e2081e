import type { TLSSocket } from 'node:tls';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { HttpsConfig } from '../config.js';

/** ACME HTTP-01 answers stay on plain HTTP: a CA validates there first. */
const CHALLENGE_PREFIX = '/.well-known/acme-challenge/';
const HSTS = 'max-age=31536000';

const overTls = (request: FastifyRequest) =>
  (request.raw.socket as TLSSocket | undefined)?.encrypted === true;

/**
 * With an HTTPS listener (`HTTPS_PORT`): HSTS on answers sent over TLS only (a browser ignores it on
 * plain HTTP, and it must not pin a deployment that serves HTTP alone), and, with
 * `INFRAGATE_HTTPS_REDIRECT`, a 308 from plain HTTP to the same host and path on the HTTPS port,
 * before authentication, except for ACME challenges.
 */
export function registerHttpsPolicy(app: FastifyInstance, https: HttpsConfig): void {
  const port = https.port;
  if (port === undefined) return;
  const portSuffix = port === 443 ? '' : `:${port}`;
  if (https.redirect) {
    app.addHook('onRequest', (request, reply, done) => {
      if (overTls(request) || request.url.startsWith(CHALLENGE_PREFIX) || !request.hostname) return done();
      reply.redirect(`https://${request.hostname}${portSuffix}${request.url}`, 308);
    });
  }
  app.addHook('onSend', (request, reply, payload, done) => {
    if (overTls(request)) reply.header('strict-transport-security', HSTS);
    done(null, payload);
  });
}
