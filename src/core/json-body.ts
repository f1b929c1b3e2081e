import { errorCodes, type FastifyInstance } from 'fastify';

/**
 * Parses JSON bodies with plain `JSON.parse` in place of Fastify's default parser, which refuses a
 * `__proto__` key with the same error as malformed JSON. Such keys then reach the input guard
 * (core/input-guard.ts), which refuses them by path with the reason.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    if (body === '') return done(new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY(), undefined);
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY(), undefined);
    }
  });
}
