import type { FastifyRequest } from 'fastify';
import type { GatewayModule } from '../../../core/app.js';
import { validationError } from '../../../core/errors.js';
import { DataOf, Success } from '../../../core/http-schemas.js';
import type { OpenStreams } from '../../../core/sse.js';
import type { ContainerFileService } from '../container-files.js';
import {
  ContainerBrowseQuery,
  ContainerDeleteQuery,
  ContainerFileQuery,
  DirectoryCreation,
  DirectoryListing,
  FileBytes,
  FileMove,
} from '../schemas/files.js';
import { ContainerParams } from '../schemas/params.js';
import { acceptOnlyJsonAndBytes, FileDownload, manage, sendFile, tags, view } from './declarations.js';

const RAW_BODY = 'send the file as the raw body, Content-Type: application/octet-stream';

/** The uploaded bytes; Fastify parses no empty body, so an empty octet-stream is an empty file. */
function rawBody(request: FastifyRequest): Buffer {
  if (Buffer.isBuffer(request.body)) return request.body;
  if (/^application\/octet-stream\b/i.test(request.headers['content-type'] ?? '')) return Buffer.alloc(0);
  throw validationError([{ path: [], message: RAW_BODY }]);
}

/** `/api/containerhost/nodes/:nodeId/containers/:containerId/files`: a container's files (archive API). */
export const containerFileRoutes: GatewayModule<{
  containerFiles: ContainerFileService;
  uploadLimitBytes: number;
  streams: OpenStreams;
}> = async (app, { containerFiles, uploadLimitBytes, streams }) => {
  acceptOnlyJsonAndBytes(app, RAW_BODY);

  app.get(
    '/',
    {
      config: { ...view, errors: [409, 422] },
      schema: {
        tags,
        summary: 'List a directory of a container (name, type, size, mode, mtime, link target)',
        params: ContainerParams,
        querystring: ContainerBrowseQuery,
        response: { 200: DataOf(DirectoryListing) },
      },
    },
    async (request) => ({
      data: await containerFiles.list(
        request.params.nodeId,
        request.params.containerId,
        request.query.path ?? '/',
      ),
    }),
  );

  app.get(
    '/content',
    {
      config: { ...view, errors: [422] },
      schema: {
        tags,
        summary: 'Download a file of a container',
        params: ContainerParams,
        querystring: ContainerFileQuery,
        response: FileDownload,
      },
    },
    async (request, reply) => {
      const { nodeId, containerId } = request.params;
      const file = await containerFiles.read(nodeId, containerId, request.query.path, streams.track(reply));
      return sendFile(reply, file, request.query.path);
    },
  );

  app.put(
    '/content',
    {
      config: { ...manage, errors: [409, 422] },
      bodyLimit: uploadLimitBytes,
      schema: {
        tags,
        summary: `Upload or replace a file in a container (raw body, at most INFRAGATE_VOLUME_WRITE_LIMIT_BYTES)`,
        params: ContainerParams,
        querystring: ContainerFileQuery,
        body: { content: { 'application/octet-stream': { schema: FileBytes } } },
        response: { 200: Success },
      },
    },
    async (request) => {
      const { nodeId, containerId } = request.params;
      await containerFiles.upload(request.actor, nodeId, containerId, request.query.path, rawBody(request));
      return { success: true };
    },
  );

  app.delete(
    '/',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Delete a file or directory in a running container (rm/rmdir, no shell)',
        params: ContainerParams,
        querystring: ContainerDeleteQuery,
        response: { 200: Success },
      },
    },
    async (request) => {
      const { nodeId, containerId } = request.params;
      const { path, recursive } = request.query;
      await containerFiles.remove(request.actor, nodeId, containerId, path, recursive ?? false);
      return { success: true };
    },
  );

  app.post(
    '/move',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Move a file or directory inside a running container (exec of mv, no shell)',
        params: ContainerParams,
        body: FileMove,
        response: { 200: Success },
      },
    },
    async (request) => {
      const { nodeId, containerId } = request.params;
      await containerFiles.move(request.actor, nodeId, containerId, request.body);
      return { success: true };
    },
  );

  app.post(
    '/mkdir',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Create a directory (and missing parents) in a container',
        params: ContainerParams,
        body: DirectoryCreation,
        response: { 201: Success },
      },
    },
    async (request, reply) => {
      const { nodeId, containerId } = request.params;
      await containerFiles.mkdir(request.actor, nodeId, containerId, request.body.path);
      return reply.status(201).send({ success: true });
    },
  );
};
