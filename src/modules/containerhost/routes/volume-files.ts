import type { GatewayModule } from '../../../core/app.js';
import { Success } from '../../../core/http-schemas.js';
import { VolumeWriteQuery } from '../schemas/actions.js';
import { VolumeParams } from '../schemas/params.js';
import type { VolumeFileService } from '../volume-files.js';
import { manage, tags } from './declarations.js';

/** `/api/containerhost/nodes/:nodeId/volumes/:name/files`: files written into a volume. */
export const volumeFileRoutes: GatewayModule<{
  volumeFiles: VolumeFileService;
  writeLimitBytes: number;
}> = async (app, { volumeFiles, writeLimitBytes }) => {
  app.put(
    '/write',
    {
      config: manage,
      // JSON bodies carry base64, so they may be a third larger than the file they describe.
      bodyLimit: Math.ceil(writeLimitBytes * 1.4) + 64 * 1024,
      schema: {
        tags,
        summary:
          'Write a file into a volume: raw body (application/octet-stream) with ?path=, or JSON {path, content, encoding: utf8|base64}',
        params: VolumeParams,
        querystring: VolumeWriteQuery,
        response: { 200: Success },
      },
    },
    async (request) => {
      await volumeFiles.writeVolumeFile(request.actor, request.params.nodeId, request.params.name, {
        body: request.body,
        queryPath: request.query.path,
      });
      return { success: true };
    },
  );
};
