import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { HttpMetrics } from './metrics/http-metrics.js';

/**
 * One log line per answered request, at info: what Fastify's "incoming request" and "request
 * completed" lines said together (method, url, host, client address, status, time), for half the
 * serialisation and output of logging both. An errored request is still logged at error with its
 * error. Headers are never logged. The same place counts the request for /metrics, so neither
 * adds a hook to every route.
 */
export class OneLinePerRequest extends LogController {
  constructor(private readonly metrics: HttpMetrics) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    this.metrics.answered(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime);
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
