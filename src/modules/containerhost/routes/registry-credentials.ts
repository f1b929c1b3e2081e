import type { GatewayModule } from '../../../core/app.js';
import { DataOf, PageOf, Success } from '../../../core/http-schemas.js';
import type { RegistryCredentialService } from '../registry-credentials.js';
import { NodeParams } from '../schemas/params.js';
import {
  RegistryCredential,
  RegistryCredentialQuery,
  RegistryLogin,
  RegistryParams,
} from '../schemas/registry-credentials.js';
import { manage, tags, view } from './declarations.js';

/** `/api/containerhost/nodes/:nodeId/registry-credentials`: credentials pulls use; passwords write-only. */
export const registryCredentialRoutes: GatewayModule<{
  registryCredentials: RegistryCredentialService;
}> = async (app, { registryCredentials }) => {
  app.get(
    '/',
    {
      config: view,
      schema: {
        tags,
        summary: "List a node's stored registry credentials (registry and username; never the password)",
        params: NodeParams,
        querystring: RegistryCredentialQuery,
        response: { 200: PageOf(RegistryCredential) },
      },
    },
    async (request) => registryCredentials.list(request.params.nodeId, request.query),
  );

  app.put(
    '/:registry',
    {
      config: manage,
      schema: {
        tags,
        summary: "Store (or replace) a registry's credentials for the node's pulls",
        params: RegistryParams,
        body: RegistryLogin,
        response: { 200: DataOf(RegistryCredential) },
      },
    },
    async (request) => ({
      data: await registryCredentials.save(
        request.actor,
        request.params.nodeId,
        request.params.registry,
        request.body,
      ),
    }),
  );

  app.delete(
    '/:registry',
    {
      config: manage,
      schema: {
        tags,
        summary: "Delete a registry's stored credentials",
        params: RegistryParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await registryCredentials.remove(request.actor, request.params.nodeId, request.params.registry);
      return { success: true };
    },
  );
};
