import { pipeline } from 'node:stream/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { GatewayModule } from '../../../core/app.js';
import { AppError } from '../../../core/errors.js';
import type { InferencePlane, PlaneAnswer } from '../plane/data-plane.js';
import {
  callerProtocol,
  errorBody,
  errorEvent,
  type Operation,
  PlaneFault,
  type WireProtocol,
} from '../plane/protocols.js';

/**
 * The data plane under `/inference`, where the official SDKs find it with only a base URL change.
 * Public to the gateway's authentication: the consumer key (igk_…) is resolved by the plane, and
 * every answer, refusals included, is in the caller's protocol. Not in /openapi.json: the shapes are
 * the providers' own (docs/api/inference.md).
 */
const access = { public: true } as const;
const hidden = { hide: true } as const;

/** The consumer key: `Authorization: Bearer`, vendor2's `x-api-key` or vendor4's `x-goog-api-key`. */
function secretOf(request: FastifyRequest): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
  const header = (name: string) => {
    const value = request.headers[name];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  return bearer ?? header('x-api-key') ?? header('x-goog-api-key');
}

/** The fault a framework error (size, JSON, media type) or any other failure amounts to. */
function faultOf(error: unknown): PlaneFault {
  if (error instanceof PlaneFault) return error;
  const fastifyCode = (error as { code?: string }).code;
  if (fastifyCode === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return new PlaneFault('too_large', 'request_too_large', 'the request body is over the size limit');
  if (typeof fastifyCode === 'string' && fastifyCode.startsWith('FST_ERR_CTP'))
    return new PlaneFault(
      'invalid',
      'invalid_body',
      'the body must be JSON (content-type: application/json)',
    );
  if (error instanceof AppError && error.statusCode < 500)
    return new PlaneFault('invalid', 'invalid_body', error.message);
  return new PlaneFault('upstream', 'gateway_error', 'the gateway failed to carry the request');
}

export const dataPlaneRoutes: GatewayModule<{ plane: InferencePlane; maxBodyBytes: number }> = async (
  app,
  { plane, maxBodyBytes },
) => {
  const protocols = new Map<string, WireProtocol>();
  app.setErrorHandler((error, request, reply) => {
    const fault = faultOf(error);
    if (fault.status >= 500 && !(error instanceof PlaneFault))
      request.log.error({ err: error }, 'data plane failure');
    const protocol =
      protocols.get((request.routeOptions.url ?? '').slice(app.prefix.length)) ?? 'vendor1-chat';
    if (fault.retryAfterSeconds !== undefined) reply.header('retry-after', String(fault.retryAfterSeconds));
    return reply.status(fault.status).send(errorBody(protocol, fault));
  });

  /** The client's going away aborts the upstream call. */
  const clientGone = (request: FastifyRequest, reply: FastifyReply) => {
    const controller = new AbortController();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) controller.abort();
    });
    request.raw.on('aborted', () => controller.abort());
    return controller.signal;
  };

  const send = async (reply: FastifyReply, answer: PlaneAnswer, abort: AbortSignal) => {
    if (!answer.stream) return reply.status(answer.status).type(answer.contentType).send(answer.body);
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(answer.status, {
      'content-type': answer.contentType,
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    });
    raw.flushHeaders();
    try {
      // pipeline waits on the client's drain: a slow reader slows the upstream read (backpressure).
      await pipeline(answer.body, raw, { end: false });
    } catch (error) {
      if (abort.aborted || raw.destroyed) {
        answer.body.destroy();
        return;
      }
      const reason = error instanceof Error ? error.message : String(error);
      raw.write(
        errorEvent(
          answer.protocol,
          new PlaneFault('upstream', 'upstream_stream_broken', `the provider's stream broke off: ${reason}`),
        ),
      );
    }
    raw.end();
  };

  const post = (url: string, operation: Operation) => {
    protocols.set(url, callerProtocol(operation));
    app.post(url, { config: access, schema: hidden, bodyLimit: maxBodyBytes }, async (request, reply) => {
      const abort = clientGone(request, reply);
      const answer = await plane.handle({
        operation,
        secret: secretOf(request),
        body: request.body,
        headers: request.headers,
        abort,
      });
      return send(reply, answer, abort);
    });
  };

  post('/v1/chat/completions', 'vendor1-chat');
  post('/v1/responses', 'vendor1-responses');
  post('/v1/embeddings', 'vendor1-embeddings');
  post('/v1/messages', 'vendor2-messages');

  const vendor4 = '/v1beta/models/:modelAction';
  protocols.set(vendor4, 'vendor4-content');
  app.post(
    vendor4,
    {
      config: access,
      schema: { ...hidden, params: Type.Object({ modelAction: Type.String({ maxLength: 300 }) }) },
      bodyLimit: maxBodyBytes,
    },
    async (request, reply) => {
      const { modelAction } = request.params;
      const colon = modelAction.lastIndexOf(':');
      const method = colon > 0 ? modelAction.slice(colon + 1) : '';
      if (method !== 'generateContent' && method !== 'streamGenerateContent')
        throw new PlaneFault(
          'not_found',
          'method_not_found',
          `no method ${modelAction}; use :generateContent or :streamGenerateContent`,
        );
      const abort = clientGone(request, reply);
      const answer = await plane.handle({
        operation: 'vendor4-content',
        secret: secretOf(request),
        body: request.body,
        pathModel: modelAction.slice(0, colon),
        streamMethod: method === 'streamGenerateContent',
        headers: request.headers,
        abort,
      });
      return send(reply, answer, abort);
    },
  );

  protocols.set('/v1/models', 'vendor1-chat');
  app.get('/v1/models', { config: access, schema: hidden }, async (request) =>
    plane.models(secretOf(request)),
  );
};
