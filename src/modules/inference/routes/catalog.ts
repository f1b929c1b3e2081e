import { Type } from 'typebox';
import type { GatewayModule } from '../../../core/app.js';
import { areaAccess } from '../../../core/auth/area-access.js';
import type { ProviderCatalog } from '../provider-catalog.js';
import { PublicCatalogEntry } from '../schemas.js';

const { view } = areaAccess('inference');

const tags = ['inference'];

/** `/api/inference/providers/catalog`: the providers a connection can be made to. */
export const catalogRoutes: GatewayModule<{ catalog: ProviderCatalog }> = async (app, { catalog }) => {
  app.get(
    '',
    {
      config: view,
      schema: {
        tags,
        summary: 'List the provider catalog',
        response: { 200: Type.Array(PublicCatalogEntry) },
      },
    },
    async () => catalog.list(),
  );
};
