import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { GatewayModule } from '../../../core/app.js';
import { invalidField } from '../../../core/errors.js';
import { DataOf } from '../../../core/http-schemas.js';
import { sendRetryAfter } from '../../../core/too-many-requests.js';
import {
  checkRecordCount,
  mediaTypeOf,
  parseRecordBatch,
  readBody,
  unsupportedMediaType,
} from '../ingest-body.js';
import type { IngestService } from '../ingest-service.js';
import type { IngestTokens } from '../ingest-tokens.js';
import { otlpRecords } from '../otlp-logs.js';
import { decodeExportLogsRequest, encodeExportLogsResponse, ProtobufError } from '../otlp-protobuf.js';
import { IngestResult, type IngestTarget } from '../record-schemas.js';

const tags = ['logging ingest'];
/**
 * Public to the gateway's authentication, with a token of its own (a bad one is 401); answers beside
 * 200: a refused body (content, size, type) and the token's rate limit.
 */
const ingestAccess = { public: true, ownToken: 'ingestToken', errors: [400, 413, 415, 429] } as const;
const RECORD_TYPES = ['application/json', 'application/x-ndjson'];
const OTLP_TYPES = ['application/x-protobuf', 'application/json'];
const TOKEN_NOTE =
  'Authenticates with an ingest token of the environment (`Authorization: Bearer igl_…`), not an API ' +
  'token; gzip bodies (`Content-Encoding: gzip`) are accepted. Limits are the environment’s `ingest` ' +
  'settings: 413 past the body size or record count, 429 with `Retry-After` past the token’s rate.';

const OtlpResponse = Type.Object({
  partialSuccess: Type.Optional(
    Type.Object({ rejectedLogRecords: Type.String(), errorMessage: Type.String() }),
  ),
});

/** A few of the problems, for OTLP's one-line `errorMessage`. */
const summary = (result: IngestResult) =>
  result.errors
    .slice(0, 5)
    .map((issue) => `record ${issue.index} ${issue.path.join('.') || '(record)'}: ${issue.message}`)
    .join('; ');

function parseOtlp(mediaType: string, body: Buffer): unknown {
  if (mediaType === 'application/x-protobuf') {
    try {
      return decodeExportLogsRequest(body);
    } catch (error) {
      if (error instanceof ProtobufError)
        throw invalidField([], `body is not an OTLP ExportLogsServiceRequest: ${error.message}`);
      throw error;
    }
  }
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw invalidField([], 'body is not valid JSON');
  }
}

/**
 * Ingest: `POST /api/logging/ingest` (JSON, JSON array or NDJSON) and OTLP/HTTP `POST /v1/logs`
 * (protobuf or JSON). Both take ingest tokens only: the gateway's authentication treats them as
 * public and this plugin resolves the `igl_` token first, on request, so the order of answers stays
 * 401 → 415 → 413 → 400. Bodies are read here, as streams, against the environment's own limit.
 */
export const ingestRoutes: GatewayModule<{ tokens: IngestTokens; ingest: IngestService }> = async (
  app,
  { tokens, ingest },
) => {
  const targets = new WeakMap<FastifyRequest, IngestTarget>();
  const target = (request: FastifyRequest) => targets.get(request)!;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  sendRetryAfter(app);
  app.addHook('onRequest', async (request) => {
    targets.set(request, await tokens.authenticate(request.headers.authorization));
  });

  const read = async (request: FastifyRequest, allowed: string[]) => {
    const mediaType = mediaTypeOf(request.headers['content-type']);
    if (!allowed.includes(mediaType)) throw unsupportedMediaType(allowed);
    const body = await readBody(
      request.body as Readable | undefined,
      request.headers,
      target(request).maxBodyBytes,
    );
    return { mediaType, body, receivedAt: new Date() };
  };

  app.post(
    '/api/logging/ingest',
    {
      config: ingestAccess,
      schema: {
        tags,
        summary: 'Store log records in the environment of the ingest token',
        description: `One JSON record, a JSON array of records, or NDJSON (\`application/x-ndjson\`, one per line). ${TOKEN_NOTE}`,
        response: { 200: DataOf(IngestResult) },
      },
    },
    async (request) => {
      const { mediaType, body, receivedAt } = await read(request, RECORD_TYPES);
      const records = parseRecordBatch(mediaType, body, receivedAt, target(request).maxRecords);
      return { data: await ingest.accept(target(request), records, body.length) };
    },
  );

  app.post(
    '/v1/logs',
    {
      config: ingestAccess,
      schema: {
        tags,
        summary: 'OTLP/HTTP log export into the environment of the ingest token',
        description: `An OpenTelemetry ExportLogsServiceRequest, protobuf (\`application/x-protobuf\`) or JSON. ${TOKEN_NOTE}`,
        response: {
          200: {
            description: 'ExportLogsServiceResponse, in the encoding of the request',
            content: {
              'application/json': { schema: OtlpResponse },
              'application/x-protobuf': { schema: Type.String({ contentEncoding: 'binary' }) },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const { mediaType, body, receivedAt } = await read(request, OTLP_TYPES);
      const records = otlpRecords(parseOtlp(mediaType, body), receivedAt);
      checkRecordCount(records.length, target(request).maxRecords);
      const result = await ingest.accept(target(request), records, body.length);
      if (mediaType === 'application/x-protobuf') {
        const answer = encodeExportLogsResponse(result.rejected, summary(result));
        // Bytes are sent as they are; the schema can only call them a (binary) string.
        return reply.type('application/x-protobuf').send(answer as unknown as string);
      }
      return result.rejected === 0
        ? {}
        : { partialSuccess: { rejectedLogRecords: String(result.rejected), errorMessage: summary(result) } };
    },
  );
};
