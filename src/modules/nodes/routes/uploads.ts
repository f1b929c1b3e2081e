import { Readable } from 'node:stream';
import type { GatewayModule } from '../../../core/app.js';
import { areaAccess } from '../../../core/auth/area-access.js';
import { validationError } from '../../../core/errors.js';
import { DataOf, IdParams, PageOf } from '../../../core/http-schemas.js';
import { ChunkQuery, NewUpload, Upload, UploadListQuery, UploadParams } from '../schemas.js';
import { chunkTooLarge } from '../upload-errors.js';
import type { UploadService } from '../upload-service.js';

const { view, manage } = areaAccess('nodes');

const tags = ['nodes'];

function declaredLength(header: string | undefined): number | undefined {
  if (header === undefined || !/^\d+$/.test(header)) return undefined;
  return Number(header);
}

/** Resumable chunked uploads into a node under `/api/nodes/:id/files/uploads`. */
export const uploadRoutes: GatewayModule<{ uploads: UploadService; maxChunkBytes: number }> = async (
  app,
  { uploads, maxChunkBytes },
) => {
  // Chunk bodies are handed to the service as the raw request stream (never buffered), only in this
  // plugin's scope. A declared length past the per-chunk limit is refused before a byte is read.
  app.addContentTypeParser('application/octet-stream', (request, payload, done) => {
    const length = declaredLength(request.headers['content-length']);
    if (length !== undefined && length > maxChunkBytes) {
      request.raw.headers.connection = 'close';
      done(chunkTooLarge(maxChunkBytes), undefined);
      return;
    }
    done(null, payload);
  });

  app.get(
    '',
    {
      config: view,
      schema: {
        tags,
        summary: "List a node's upload sessions, newest first",
        params: IdParams,
        querystring: UploadListQuery,
        response: { 200: PageOf(Upload) },
      },
    },
    async (request) => uploads.list(request.params.id, request.query),
  );

  app.post(
    '',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Start a resumable upload',
        params: IdParams,
        body: NewUpload,
        response: { 201: DataOf(Upload) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await uploads.create(request.actor, request.params.id, request.body) }),
  );

  app.get(
    '/:uploadId',
    {
      config: view,
      schema: {
        tags,
        summary: 'Get an upload session (its receivedBytes is the resume point)',
        params: UploadParams,
        response: { 200: DataOf(Upload) },
      },
    },
    async (request) => ({ data: await uploads.get(request.params.id, request.params.uploadId) }),
  );

  app.put(
    '/:uploadId/chunks',
    {
      config: { ...manage, errors: [409, 413, 415, 422] },
      bodyLimit: maxChunkBytes,
      schema: {
        tags,
        summary: 'Append a chunk (raw application/octet-stream body) at offset',
        description:
          'offset must equal receivedBytes (omitted or null: append); else 409 with details.expectedOffset. ' +
          'The upload completes when receivedBytes reaches totalBytes.',
        params: UploadParams,
        querystring: ChunkQuery,
        response: { 200: DataOf(Upload) },
      },
      // `?offset=null` (or empty) means "append", like an omitted offset; dropped before validation
      // because query coercion would read null as 0.
      preValidation: async (request) => {
        const query = request.query as { offset?: unknown };
        if (query.offset === 'null' || query.offset === '') delete query.offset;
      },
    },
    async (request, reply) => {
      const body = request.body as unknown;
      if (body !== undefined && !(body instanceof Readable))
        throw validationError([{ path: [], message: 'send the chunk as application/octet-stream' }], 415);
      try {
        const data = await uploads.writeChunk(request.actor, request.params.id, request.params.uploadId, {
          offset: request.query.offset ?? null,
          body: body as Readable | undefined,
          contentLength: declaredLength(request.headers['content-length']),
        });
        return { data };
      } catch (error) {
        // A refused chunk whose body was not read: close the connection instead of draining it.
        if (body instanceof Readable && !body.readableEnded) reply.header('connection', 'close');
        throw error;
      }
    },
  );

  app.post(
    '/:uploadId/complete',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Complete an upload (idempotent; 409 while bytes are missing)',
        params: UploadParams,
        response: { 200: DataOf(Upload) },
      },
    },
    async (request) => ({
      data: await uploads.complete(request.actor, request.params.id, request.params.uploadId),
    }),
  );

  app.delete(
    '/:uploadId',
    {
      config: { ...manage, errors: [409] },
      schema: {
        tags,
        summary: 'Abort an upload and remove its temp data',
        params: UploadParams,
        response: { 200: DataOf(Upload) },
      },
    },
    async (request) => ({
      data: await uploads.abort(request.actor, request.params.id, request.params.uploadId),
    }),
  );
};
