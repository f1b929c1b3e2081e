import type { FastifyInstance } from 'fastify';

/**
 * One log line per answered request, at info: what Fastify's "incoming request" and "request
 * completed" lines said together (method, url, host, client address, status, time), for half the
 * serialisation and output of logging both. Headers are never logged.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    // Below info, `info` is a no-op: only this small object is built.
    request.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    done();
  });
}
