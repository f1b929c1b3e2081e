import type { GatewayModule } from '../../../core/app.js';
import { invalidField, validationError } from '../../../core/errors.js';
import { DataOf, Success } from '../../../core/http-schemas.js';
import type { OpenStreams } from '../../../core/sse.js';
import { DirectoryListing } from '../schemas/files.js';
import { VolumeParams } from '../schemas/params.js';
import {
  VolumeBrowseQuery,
  VolumeFileBody,
  type VolumeFileJson,
  VolumeReadQuery,
  VolumeWriteQuery,
} from '../schemas/volume-files.js';
import type { VolumeFile, VolumeFileService } from '../volume-files.js';
import { acceptOnlyJsonAndBytes, FileDownload, manage, sendFile, tags, view } from './declarations.js';

const TWO_FORMS = 'send application/octet-stream with ?path=, or a JSON object {path, content, encoding}';
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The file a write carries, from either body form (its schema checked the fields): the raw body at
 * `?path=`, or the JSON content decoded. The size limit names the part of the request that is too
 * large: the whole raw body, or the JSON `content`.
 */
function fileOf(
  body: Buffer | VolumeFileJson | undefined,
  queryPath: string | undefined,
  limit: number,
): VolumeFile {
  if (body === undefined) throw validationError([{ path: [], message: TWO_FORMS }]);
  const tooLarge = (path: string[]) =>
    validationError([{ path, message: `must be at most ${limit} bytes` }], 413);
  if (Buffer.isBuffer(body)) {
    if (queryPath === undefined) throw invalidField(['path'], 'is required (query parameter ?path=)');
    if (body.length > limit) throw tooLarge([]);
    return { path: queryPath, content: body };
  }
  // Node's base64 decoder skips what is not base64; a typo must not write a silently different file.
  if (body.encoding === 'base64' && !BASE64.test(body.content.replace(/\s/g, '')))
    throw invalidField(['content'], 'is not valid base64');
  const content = Buffer.from(body.content, body.encoding);
  if (content.length > limit) throw tooLarge(['content']);
  return { path: body.path, content };
}

/** `/api/containerhost/nodes/:nodeId/volumes/:name/files`: a volume's files, browsed, read and written. */
export const volumeFileRoutes: GatewayModule<{
  volumeFiles: VolumeFileService;
  writeLimitBytes: number;
  streams: OpenStreams;
}> = async (app, { volumeFiles, writeLimitBytes, streams }) => {
  acceptOnlyJsonAndBytes(app, TWO_FORMS);

  app.put(
    '/write',
    {
      config: { ...manage, errors: [409, 422] },
      // JSON bodies carry base64, so they may be a third larger than the file they describe.
      bodyLimit: Math.ceil(writeLimitBytes * 1.4) + 64 * 1024,
      schema: {
        tags,
        summary:
          'Write a file into a volume: raw body (application/octet-stream) with ?path=, or JSON {path, content, encoding: utf8|base64}',
        params: VolumeParams,
        querystring: VolumeWriteQuery,
        body: VolumeFileBody,
        response: { 200: Success },
      },
    },
    async (request) => {
      const body = request.body as Buffer | VolumeFileJson | undefined; // checked by its content type's schema
      const file = fileOf(body, request.query.path, writeLimitBytes);
      await volumeFiles.write(request.actor, request.params.nodeId, request.params.name, file);
      return { success: true };
    },
  );

  app.get(
    '/',
    {
      config: { ...view, errors: [422] },
      schema: {
        tags,
        summary: 'List a directory of a volume (through a helper container)',
        params: VolumeParams,
        querystring: VolumeBrowseQuery,
        response: { 200: DataOf(DirectoryListing) },
      },
    },
    async (request) => ({
      data: await volumeFiles.list(request.params.nodeId, request.params.name, request.query.path ?? '/'),
    }),
  );

  app.get(
    '/content',
    {
      config: { ...view, errors: [422] },
      schema: {
        tags,
        summary: 'Download a file of a volume',
        params: VolumeParams,
        querystring: VolumeReadQuery,
        response: FileDownload,
      },
    },
    async (request, reply) => {
      const { nodeId, name } = request.params;
      const file = await volumeFiles.read(nodeId, name, request.query.path, streams.track(reply));
      return sendFile(reply, file, request.query.path);
    },
  );
};
