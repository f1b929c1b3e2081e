import type { GatewayModule } from '../../core/app.js';
import { DataOf, IdParams } from '../../core/http-schemas.js';
import type { KeyBrowser } from './keys-read.js';
import { KeyListQuery, KeyPage, KeyParams, KeyReadQuery, KeyValue } from './keyvalue-schemas.js';

const read = { scope: 'databases:read', errors: [409, 422] } as const;
const tags = ['databases'];

/** The key browser's reads, under `/api/databases/{id}/keyvalue/keys`. */
export const keyReadRoutes: GatewayModule<{ browser: KeyBrowser }> = async (app, { browser }) => {
  app.get(
    '/:id/keyvalue/keys',
    {
      config: read,
      schema: {
        tags,
        summary: 'A page of keys by SCAN, each with its type, TTL and sampled memory usage',
        params: IdParams,
        querystring: KeyListQuery,
        response: { 200: KeyPage },
      },
    },
    async (request) => browser.list(request.params.id, request.query),
  );

  app.get(
    '/:id/keyvalue/keys/:key',
    {
      config: read,
      schema: {
        tags,
        summary: "A page of one key's value, by its type",
        description:
          'The key is URL-encoded UTF-8, or base64url with `encoding=base64`. 404 `KEY_NOT_FOUND` when it is ' +
          'gone, 409 `KEY_TYPE_CHANGED` when it holds another type than `type`.',
        params: KeyParams,
        querystring: KeyReadQuery,
        response: { 200: DataOf(KeyValue) },
      },
    },
    async (request) => ({ data: await browser.read(request.params.id, request.params.key, request.query) }),
  );
};
