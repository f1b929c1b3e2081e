import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * One log line per answered request, at info: what Fastify's "incoming request" and "request
 * completed" lines said together (method, url, host, client address, status, time), for half the
 * serialisation and output of logging both. An errored request is still logged at error with its
 * error. Headers are never logged.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
