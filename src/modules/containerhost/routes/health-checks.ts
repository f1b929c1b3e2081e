import type { GatewayModule } from '../../../core/app.js';
import { DataOf, PageOf, Success } from '../../../core/http-schemas.js';
import type { HealthCheckService } from '../health-checks.js';
import {
  HealthCheckSaveBody,
  HealthCheckTestBody,
  HealthResult,
  SavedHealthCheck,
  SavedHealthResult,
  SavedHealthResultQuery,
} from '../schemas/health-checks.js';
import { ContainerNameParams } from '../schemas/params.js';
import { emptyBodyAsObject, manage, tags, view } from './declarations.js';

/** `/api/containerhost/nodes/:nodeId/containers/:containerName/health-check`: one-off and saved probes. */
export const healthCheckRoutes: GatewayModule<{ healthChecks: HealthCheckService }> = async (
  app,
  { healthChecks },
) => {
  app.post(
    '/test',
    {
      config: { ...manage, errors: [409, 422] },
      preValidation: emptyBodyAsObject,
      schema: {
        tags,
        summary: "Probe a container over HTTP(S) once now (the saved config, overlaid by the body's fields)",
        params: ContainerNameParams,
        body: HealthCheckTestBody,
        response: { 200: DataOf(HealthResult) },
      },
    },
    async (request) => ({
      data: await healthChecks.test(request.params.nodeId, request.params.containerName, request.body),
    }),
  );

  app.get(
    '/',
    {
      config: view,
      schema: {
        tags,
        summary: "Get a container's saved health check",
        params: ContainerNameParams,
        response: { 200: DataOf(SavedHealthCheck) },
      },
    },
    async (request) => ({
      data: await healthChecks.getSaved(request.params.nodeId, request.params.containerName),
    }),
  );

  app.put(
    '/',
    {
      config: manage,
      schema: {
        tags,
        summary: "Save a container's health check (runs every intervalSeconds in the background)",
        params: ContainerNameParams,
        body: HealthCheckSaveBody,
        response: { 200: DataOf(SavedHealthCheck) },
      },
    },
    async (request) => ({
      data: await healthChecks.save(
        request.actor,
        request.params.nodeId,
        request.params.containerName,
        request.body,
      ),
    }),
  );

  app.delete(
    '/',
    {
      config: manage,
      schema: {
        tags,
        summary: "Delete a container's saved health check and its results",
        params: ContainerNameParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await healthChecks.remove(request.actor, request.params.nodeId, request.params.containerName);
      return { success: true };
    },
  );

  app.get(
    '/results',
    {
      config: view,
      schema: {
        tags,
        summary: 'The latest results of a saved health check, newest first',
        params: ContainerNameParams,
        querystring: SavedHealthResultQuery,
        response: { 200: PageOf(SavedHealthResult) },
      },
    },
    async (request) =>
      healthChecks.results(request.params.nodeId, request.params.containerName, request.query),
  );
};
