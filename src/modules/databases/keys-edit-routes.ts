import type { TSchema } from 'typebox';
import type { GatewayModule } from '../../core/app.js';
import { Success } from '../../core/http-schemas.js';
import { pathBytes } from './key-bytes.js';
import type { KeyEditor } from './keys-edit.js';
import {
  EditResult,
  FieldParams,
  FieldValueBody,
  IndexParams,
  KeyEncodingQuery,
  KeyParams,
  ListPush,
  MemberBody,
  MemberParams,
  NewKeyValue,
  RenameBody,
  StreamEntryBody,
  TtlBody,
} from './keyvalue-schemas.js';

const write = { scope: 'databases:write', errors: [409, 422] } as const;
const tags = ['databases'];
const keyPath = '/:id/keyvalue/keys/:key';

/** What the helpers read of a request (structurally, so every route's typed request fits). */
interface Located {
  params: { key: string; field?: string; member?: string };
  query: { encoding?: 'text' | 'base64' | undefined };
}
const keyOf = (request: Located) => pathBytes(request.params.key, request.query.encoding, 'key');
const segmentOf = (request: Located, name: 'field' | 'member') =>
  pathBytes(request.params[name]!, request.query.encoding, name);

function schema<P extends TSchema>(summary: string, params: P) {
  return { tags, summary, params, querystring: KeyEncodingQuery, response: { 200: EditResult } };
}
function schemaWithBody<P extends TSchema, B extends TSchema>(summary: string, params: P, body: B) {
  return { ...schema(summary, params), body };
}

/** The key browser's edits (`databases:write`), under `/api/databases/{id}/keyvalue/keys/{key}`. */
export const keyEditRoutes: GatewayModule<{ editor: KeyEditor }> = async (app, { editor }) => {
  app.put(
    keyPath,
    {
      config: write,
      schema: schemaWithBody('Create or replace a key with a whole value (and TTL)', KeyParams, NewKeyValue),
    },
    async (request) => ({
      data: await editor.put(request.actor, request.params.id, keyOf(request), request.body),
    }),
  );
  app.put(
    `${keyPath}/fields/:field`,
    { config: write, schema: schemaWithBody('Set one field of a hash (HSET)', FieldParams, FieldValueBody) },
    async (request) => ({
      data: await editor.putField(
        request.actor,
        request.params.id,
        keyOf(request),
        segmentOf(request, 'field'),
        request.body.value,
      ),
    }),
  );
  app.delete(
    `${keyPath}/fields/:field`,
    { config: write, schema: schema('Delete one field of a hash (HDEL)', FieldParams) },
    async (request) => ({
      data: await editor.deleteField(
        request.actor,
        request.params.id,
        keyOf(request),
        segmentOf(request, 'field'),
      ),
    }),
  );
  app.post(
    `${keyPath}/items`,
    {
      config: write,
      schema: schemaWithBody('Push an item onto a list (LPUSH / RPUSH)', KeyParams, ListPush),
    },
    async (request) => ({
      data: await editor.pushItem(request.actor, request.params.id, keyOf(request), request.body),
    }),
  );
  app.put(
    `${keyPath}/items/:index`,
    { config: write, schema: schemaWithBody('Set a list item by index (LSET)', IndexParams, FieldValueBody) },
    async (request) => ({
      data: await editor.setItem(
        request.actor,
        request.params.id,
        keyOf(request),
        request.params.index,
        request.body.value,
      ),
    }),
  );
  app.delete(
    `${keyPath}/items/:index`,
    { config: write, schema: schema('Remove a list item by index', IndexParams) },
    async (request) => ({
      data: await editor.removeItem(request.actor, request.params.id, keyOf(request), request.params.index),
    }),
  );
  app.post(
    `${keyPath}/members`,
    {
      config: write,
      schema: schemaWithBody('Add a set member, or with a score a sorted-set member', KeyParams, MemberBody),
    },
    async (request) => ({
      data: await editor.addMember(request.actor, request.params.id, keyOf(request), request.body),
    }),
  );
  app.delete(
    `${keyPath}/members/:member`,
    { config: write, schema: schema('Remove a member of a set or sorted set', MemberParams) },
    async (request) => ({
      data: await editor.removeMember(
        request.actor,
        request.params.id,
        keyOf(request),
        segmentOf(request, 'member'),
      ),
    }),
  );
  app.post(
    `${keyPath}/entries`,
    { config: write, schema: schemaWithBody('Add an entry to a stream (XADD)', KeyParams, StreamEntryBody) },
    async (request) => ({
      data: await editor.addEntry(request.actor, request.params.id, keyOf(request), request.body),
    }),
  );
  app.put(
    `${keyPath}/ttl`,
    {
      config: write,
      schema: schemaWithBody('Set the TTL in seconds, or with null remove it', KeyParams, TtlBody),
    },
    async (request) => ({
      data: await editor.setTtl(request.actor, request.params.id, keyOf(request), request.body.ttl),
    }),
  );
  app.post(
    `${keyPath}/rename`,
    {
      config: write,
      schema: schemaWithBody('Rename a key (409 KEY_EXISTS unless overwrite)', KeyParams, RenameBody),
    },
    async (request) => ({
      data: await editor.rename(request.actor, request.params.id, keyOf(request), request.body),
    }),
  );
  app.delete(
    keyPath,
    {
      config: write,
      schema: {
        tags,
        summary: 'Delete a key (UNLINK)',
        params: KeyParams,
        querystring: KeyEncodingQuery,
        response: { 200: Success },
      },
    },
    async (request) => {
      await editor.remove(request.actor, request.params.id, keyOf(request));
      return { success: true };
    },
  );
};
