import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ERROR_MESSAGE, type ErrorCode, type ValidationIssue } from './errors.js';

interface AjvIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** `/items/0/nodeId` → `['items', 0, 'nodeId']`; a missing property names itself. */
function ajvIssueToValidationIssue(issue: AjvIssue): ValidationIssue {
  const path: (string | number)[] = issue.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
  if (issue.keyword === 'required') {
    path.push(String(issue.params.missingProperty));
    return { path, message: 'is required' };
  }
  if (issue.keyword === 'enum' && Array.isArray(issue.params.allowedValues)) {
    return { path, message: `must be one of: ${issue.params.allowedValues.join(', ')}` };
  }
  return { path, message: issue.message ?? 'is invalid' };
}

function send(reply: FastifyReply, status: number, code: ErrorCode, details?: unknown, message?: string) {
  const body: Record<string, unknown> = { code, message: message ?? ERROR_MESSAGE[code] };
  if (details !== undefined) body.details = details;
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

/**
 * Errors raised before a route is chosen (a malformed URL, a parameter longer than the router
 * takes) bypass the error handler; they are bad requests and answer the envelope too.
 */
export function answerFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  void send(reply, 400, 'VALIDATION_ERROR', [{ path: [], message: error.message }]);
}

/** Maps every failure to the contract's envelope; nothing but INTERNAL_ERROR leaves a 500, and no stack leaves. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError)
      return send(reply, error.statusCode, error.code, error.details, error.message);
    const fastifyError = error as FastifyError;
    if (fastifyError.validation) {
      const location = fastifyError.validationContext;
      const details = fastifyError.validation.map((issue) => ({
        ...ajvIssueToValidationIssue(issue as AjvIssue),
        ...(location && location !== 'body' ? { in: location } : {}),
      }));
      return send(reply, 400, 'VALIDATION_ERROR', details);
    }
    const status = fastifyError.statusCode ?? 500;
    if (status === 413 || status === 415 || (status >= 400 && status < 500 && status !== 404)) {
      // Body parsing and transport problems (too large, bad JSON, wrong content type) are bad input.
      const message =
        fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
          ? 'body is not valid JSON'
          : fastifyError.message;
      return send(reply, status === 413 || status === 415 ? status : 400, 'VALIDATION_ERROR', [
        { path: [], message },
      ]);
    }
    if (status === 404) return send(reply, 404, 'NOT_FOUND');
    request.log.error({ err: error }, 'request failed');
    return send(reply, 500, 'INTERNAL_ERROR');
  });

  app.setNotFoundHandler((_request, reply) => send(reply, 404, 'NOT_FOUND'));
}
