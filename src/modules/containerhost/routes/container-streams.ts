import type { GatewayModule } from '../../../core/app.js';
import { DataOf } from '../../../core/http-schemas.js';
import { type OpenStreams, sendEventStream } from '../../../core/sse.js';
import type { ContainerLogService } from '../container-logs.js';
import type { ContainerStatsService } from '../container-stats.js';
import { LogLines, LogsQuery, StatsQuery, StatsSample } from '../schemas/container-streams.js';
import { ContainerParams } from '../schemas/params.js';
import { JsonOrEvents, tags, view } from './declarations.js';

/**
 * `/api/containerhost/nodes/:nodeId/containers/:containerId/{logs,stats}`: JSON, or Server-Sent Events
 * with `?follow=true` / `?stream=true`. Streams hold no database
 * transaction and end when the client leaves.
 */
export const containerStreamRoutes: GatewayModule<{
  logs: ContainerLogService;
  stats: ContainerStatsService;
  streams: OpenStreams;
}> = async (app, { logs, stats, streams }) => {
  app.get(
    '/logs',
    {
      config: { ...view, errors: [422] },
      schema: {
        tags,
        summary: "A container's log lines (stdout and stderr demultiplexed); ?follow=true streams them",
        params: ContainerParams,
        querystring: LogsQuery,
        response: JsonOrEvents(LogLines, '`log` events ({stream, timestamp, line}), then `end`'),
      },
    },
    async (request, reply) => {
      const { nodeId, containerId } = request.params;
      if (!request.query.follow) return logs.read(nodeId, containerId, request.query);
      const signal = streams.track(reply);
      return sendEventStream(reply, await logs.follow(nodeId, containerId, request.query, signal), signal);
    },
  );

  app.get(
    '/stats',
    {
      config: { ...view, errors: [409, 422] },
      schema: {
        tags,
        summary: "A running container's resource use: one sample, or ?stream=true for one a second",
        params: ContainerParams,
        querystring: StatsQuery,
        response: JsonOrEvents(DataOf(StatsSample), '`stats` events (one sample each), then `end`'),
      },
    },
    async (request, reply) => {
      const { nodeId, containerId } = request.params;
      if (!request.query.stream) return { data: await stats.sample(nodeId, containerId) };
      const signal = streams.track(reply);
      return sendEventStream(reply, await stats.stream(nodeId, containerId, signal), signal);
    },
  );
};
