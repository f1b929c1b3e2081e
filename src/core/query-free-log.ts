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

/**
 * Every request's log line (the logger's `req` serializer; a route's own `logSerializers` win): the
 * query is left out when no route answered. Such a URL is whatever a client sent, and the setup
 * link opened by a client that does not ask for HTML (curl, a link checker) is one: the console's
 * page route, which leaves its query out, does not answer it, so it reached the log with its code.
 */
export function requestForLog(request: FastifyRequest) {
  if (request.is404) return requestWithoutQuery(request);
  return {
    method: request.method,
    url: request.url,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
