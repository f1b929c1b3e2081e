import type { FastifyInstance } from 'fastify';
import { AppError, ERROR_MESSAGE } from './errors.js';

/**
 * 429: the caller is over a rate limit. The code stays one of the contract's seven
 * (UNPROCESSABLE_ENTITY: well formed, but not carried out now); `details.reason` is `RATE_LIMITED`
 * and `Retry-After` says when to try again.
 */
export class TooManyRequests extends AppError {
  constructor(
    readonly retryAfterSeconds: number,
    explanation: string,
  ) {
    super(
      'UNPROCESSABLE_ENTITY',
      { reason: 'RATE_LIMITED', explanation, retryAfterSeconds },
      ERROR_MESSAGE.UNPROCESSABLE_ENTITY,
      429,
    );
  }
}

/** In this plugin's scope, a TooManyRequests answer carries `Retry-After`, then the usual envelope. */
export function sendRetryAfter(app: FastifyInstance): void {
  const answer = app.errorHandler;
  app.setErrorHandler(function (error, request, reply) {
    if (error instanceof TooManyRequests) reply.header('retry-after', String(error.retryAfterSeconds));
    return answer.call(this, error, request, reply);
  });
}
