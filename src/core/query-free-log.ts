import type { FastifyRequest } from 'fastify';

/**
 * A request as its log line shows it, without the query: for routes whose query can carry a
 * secret (the first-start setup link's code, the authorization code and state of a single sign-on
 * callback). Use as the route's `logSerializers: { req: requestWithoutQuery }`.
 */
export function requestWithoutQuery(request: FastifyRequest) {
  return {
    method: request.method,
    url: request.url.split('?', 1)[0],
    host: request.host,
    remoteAddress: request.ip,
  };
}
