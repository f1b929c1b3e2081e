import { Readable } from 'node:stream';
import { Type } from 'typebox';
import type { GatewayModule } from '../../core/app.js';
import { validationError } from '../../core/errors.js';
import {
  DataOf,
  IdParams,
  Name,
  NullableTimestamp,
  PageOf,
  SearchText,
  Success,
  Timestamp,
  Uuid,
} from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';
import { UPLOAD_STATUSES } from '../../db/schema/index.js';
import { NodeService } from './service.js';
import { chunkTooLarge, UPLOAD_SWEEP_JOB, UploadService } from './upload-service.js';

const Node = Type.Object({
  id: Uuid(),
  name: Type.String(),
  rootPath: Type.String(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

const UploadStatus = Type.Enum(UPLOAD_STATUSES, {
  description: 'open → complete | failed | aborted | expired',
});

const Upload = Type.Object({
  uploadId: Uuid(),
  id: Uuid(),
  nodeId: Uuid(),
  path: Type.String({ description: 'relative to the node root' }),
  totalBytes: Type.Integer(),
  receivedBytes: Type.Integer({ description: 'bytes durably written; the next chunk starts here' }),
  chunkSize: Type.Integer({ description: 'suggested chunk size' }),
  maxChunkBytes: Type.Integer({ description: 'largest chunk one PUT may carry' }),
  sha256: Type.Union([Type.String(), Type.Null()]),
  overwrite: Type.Boolean(),
  status: UploadStatus,
  writing: Type.Boolean({ description: 'a chunk is being written right now' }),
  failureReason: Type.Union([Type.String(), Type.Null()]),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  expiresAt: Timestamp,
  completedAt: NullableTimestamp,
});

const RootPath = Type.String({
  minLength: 1,
  maxLength: 4096,
  description: 'absolute directory on the gateway host; must exist and be writable',
});
const UploadParams = Type.Object({ id: Uuid(), uploadId: Uuid() });
const MAX_OFFSET = Number.MAX_SAFE_INTEGER;

const view = { scope: 'nodes:view' };
const manage = { scope: 'nodes:manage' };
const tags = ['nodes'];

function declaredLength(header: string | undefined): number | undefined {
  if (header === undefined || !/^\d+$/.test(header)) return undefined;
  return Number(header);
}

/** Nodes (storage roots on the gateway host) and resumable chunked uploads into them. */
const nodeRoutes: GatewayModule = async (app) => {
  const { deps } = app;
  const nodeService = new NodeService(deps.db, deps.audit);
  const uploads = new UploadService(deps.db, deps.audit, deps.config, deps.log);
  const chunkLimit = deps.config.uploadMaxChunkBytes;

  deps.jobs.register({
    name: UPLOAD_SWEEP_JOB,
    intervalMs: deps.config.uploadSweepSeconds * 1000,
    run: async () => {
      await uploads.sweep();
    },
  });

  // Chunk bodies are handed to the service as the raw request stream (never buffered), only in this
  // plugin's scope. A declared length past the per-chunk limit is refused before a byte is read.
  app.addContentTypeParser('application/octet-stream', (request, payload, done) => {
    const length = declaredLength(request.headers['content-length']);
    if (length !== undefined && length > chunkLimit) {
      request.raw.headers.connection = 'close';
      done(chunkTooLarge(chunkLimit), undefined);
      return;
    }
    done(null, payload);
  });

  app.get(
    '/api/nodes',
    {
      config: view,
      schema: {
        tags,
        summary: 'List nodes',
        querystring: Type.Object({
          ...PaginationQueryFields,
          q: SearchText(),
          name: Type.Optional(Type.String({ maxLength: 255, description: 'exact name' })),
        }),
        response: { 200: PageOf(Node) },
      },
    },
    async (request) => nodeService.listNodes(request.query),
  );

  app.post(
    '/api/nodes',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Register a node (a storage root on the gateway host)',
        body: Type.Object({ name: Name, rootPath: RootPath }),
        response: { 201: DataOf(Node) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await nodeService.createNode(request.actor, request.body) }),
  );

  app.get(
    '/api/nodes/:id',
    {
      config: view,
      schema: { tags, summary: 'Get a node', params: IdParams, response: { 200: DataOf(Node) } },
    },
    async (request) => ({ data: await nodeService.getNode(request.params.id) }),
  );

  app.patch(
    '/api/nodes/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Rename a node or move its root',
        params: IdParams,
        body: Type.Object(
          { name: Type.Optional(Name), rootPath: Type.Optional(RootPath) },
          { minProperties: 1 },
        ),
        response: { 200: DataOf(Node) },
      },
    },
    async (request) => ({
      data: await nodeService.updateNode(request.actor, request.params.id, request.body),
    }),
  );

  app.delete(
    '/api/nodes/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Delete a node (open uploads are aborted; files in the root stay)',
        params: IdParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await nodeService.deleteNode(request.actor, request.params.id);
      return { success: true };
    },
  );

  app.get(
    '/api/nodes/:id/files/uploads',
    {
      config: view,
      schema: {
        tags,
        summary: "List a node's upload sessions, newest first",
        params: IdParams,
        querystring: Type.Object({ ...PaginationQueryFields, status: Type.Optional(UploadStatus) }),
        response: { 200: PageOf(Upload) },
      },
    },
    async (request) => uploads.listUploads(request.params.id, request.query),
  );

  app.post(
    '/api/nodes/:id/files/uploads',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Start a resumable upload',
        params: IdParams,
        body: Type.Object({
          path: Type.String({
            minLength: 1,
            maxLength: 4096,
            description: 'inside the node root: /a/b.bin and a/b.bin both mean <root>/a/b.bin',
          }),
          totalBytes: Type.Integer({ minimum: 0, maximum: MAX_OFFSET }),
          sha256: Type.Optional(
            Type.Union([Type.String({ pattern: '^[0-9a-fA-F]{64}$' }), Type.Null()], {
              description: 'hex SHA-256 of the whole file, verified at completion',
            }),
          ),
          overwrite: Type.Optional(Type.Boolean({ default: false })),
        }),
        response: { 201: DataOf(Upload) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        data: await uploads.createUpload(request.actor, request.params.id, {
          ...request.body,
          sha256: request.body.sha256 ?? undefined,
        }),
      }),
  );

  app.get(
    '/api/nodes/:id/files/uploads/:uploadId',
    {
      config: view,
      schema: {
        tags,
        summary: 'Get an upload session (its receivedBytes is the resume point)',
        params: UploadParams,
        response: { 200: DataOf(Upload) },
      },
    },
    async (request) => ({ data: await uploads.getUpload(request.params.id, request.params.uploadId) }),
  );

  app.put(
    '/api/nodes/:id/files/uploads/:uploadId/chunks',
    {
      config: manage,
      bodyLimit: chunkLimit,
      schema: {
        tags,
        summary: 'Append a chunk (raw application/octet-stream body) at offset',
        description:
          'offset must equal receivedBytes (omitted or null: append); else 409 with details.expectedOffset. ' +
          'The upload completes when receivedBytes reaches totalBytes.',
        params: UploadParams,
        querystring: Type.Object({
          offset: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: MAX_OFFSET }), Type.Null()])),
        }),
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
    '/api/nodes/:id/files/uploads/:uploadId/complete',
    {
      config: manage,
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
    '/api/nodes/:id/files/uploads/:uploadId',
    {
      config: manage,
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

export default nodeRoutes;
