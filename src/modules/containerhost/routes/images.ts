import type { GatewayModule } from '../../../core/app.js';
import { DataOf } from '../../../core/http-schemas.js';
import { type OpenStreams, sendEventStream, wantsEventStream } from '../../../core/sse.js';
import type { ImageService } from '../images.js';
import { ImagePrune, ImagePull, ImageRemoval, ImageRemoveQuery } from '../schemas/images.js';
import { ImageParams, NodeParams } from '../schemas/params.js';
import { ImageDetail } from '../schemas/resources.js';
import { JsonOrEvents, manage, tags } from './declarations.js';

/** `/api/containerhost/nodes/:nodeId/images`: pull (with progress), delete, prune. */
export const imageRoutes: GatewayModule<{ images: ImageService; streams: OpenStreams }> = async (
  app,
  { images, streams },
) => {
  app.post(
    '/pull',
    {
      config: { ...manage, errors: [422] },
      schema: {
        tags,
        summary:
          'Pull an image; with Accept: text/event-stream the progress streams per layer, else the answer comes when done',
        params: NodeParams,
        body: ImagePull,
        response: JsonOrEvents(
          DataOf(ImageDetail),
          '`progress` events ({layer, status, current, total}), then `pulled` (the image) and `end`',
        ),
      },
    },
    async (request, reply) => {
      const signal = streams.track(reply);
      const { nodeId } = request.params;
      if (!wantsEventStream(request))
        return { data: await images.pull(request.actor, nodeId, request.body, signal) };
      return sendEventStream(
        reply,
        await images.pullEvents(request.actor, nodeId, request.body, signal),
        signal,
      );
    },
  );

  app.delete(
    '/:imageId',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Delete an image (409 while a container uses it)',
        params: ImageParams,
        querystring: ImageRemoveQuery,
        response: { 200: DataOf(ImageRemoval) },
      },
    },
    async (request) => {
      const { nodeId, imageId } = request.params;
      return { data: await images.remove(request.actor, nodeId, imageId, request.query.force ?? false) };
    },
  );

  app.post(
    '/prune',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Remove dangling images (untagged and unused)',
        params: NodeParams,
        response: { 200: DataOf(ImagePrune) },
      },
    },
    async (request) => ({ data: await images.prune(request.actor, request.params.nodeId) }),
  );
};
