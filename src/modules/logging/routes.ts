import { type TSchema, Type } from 'typebox';
import type { AuditActor } from '../../core/actor.js';
import type { App, GatewayModule } from '../../core/app.js';
import { DataOf, Name, PageOf, SearchText, Success, Timestamp, Uuid } from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';
import type { FolderTree } from './folder-tree.js';
import { DEFAULT_RETENTION_DAYS, LoggingService } from './service.js';

const view = { scope: 'logging:view' };
const manage = { scope: 'logging:manage' };

/** Path ids are plain strings in the contract (endpoint 15: min length 1); one that names nothing is a 404. */
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 255 }) });
const NullableUuid = (description: string) => Type.Union([Uuid(), Type.Null()], { description });
/** A folder id, or `root` for the top level. */
const FolderFilter = (description: string) =>
  Type.Optional(Type.Union([Uuid(), Type.Literal('root')], { description }));
const Description = Type.String({ maxLength: 2000 });
const MAX_MOVE_IDS = 1000;

const Folder = Type.Object({
  id: Uuid(),
  name: Type.String(),
  parentId: Type.Union([Uuid(), Type.Null()]),
  sortOrder: Type.Integer(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
const FolderNode = Type.Object({
  ...Folder.properties,
  children: Type.Array(Type.Unknown(), { description: 'sub-folders, each shaped like this node' }),
});

const FieldDefinition = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z_@][A-Za-z0-9_.@-]*$' }),
  type: Type.Union([
    Type.Literal('string'),
    Type.Literal('number'),
    Type.Literal('boolean'),
    Type.Literal('timestamp'),
    Type.Literal('object'),
  ]),
  required: Type.Boolean({ default: false }),
});
const Fields = Type.Array(FieldDefinition, { maxItems: 200 });

const Schema = Type.Object({
  id: Uuid(),
  name: Type.String(),
  folderId: Type.Union([Uuid(), Type.Null()]),
  description: Type.String(),
  fields: Type.Array(FieldDefinition),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

const RetentionDays = Type.Integer({ minimum: 1, maximum: 3650, description: 'days log records are kept' });
const Environment = Type.Object({
  id: Uuid(),
  name: Type.String(),
  folderId: Type.Union([Uuid(), Type.Null()]),
  description: Type.String(),
  schemaId: Type.Union([Uuid(), Type.Null()]),
  retentionDays: Type.Integer(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

interface TreeRoutes {
  prefix: string;
  tree: FolderTree;
  tag: string;
  /** `schema` / `environment`, for the item-move route and summaries. */
  item: string;
  /** Path segment and response key of the item move: `schemas` / `environments`. */
  items: string;
  itemSchema: TSchema;
  moveItems: (
    actor: AuditActor,
    ids: string[],
    folderId: string | null,
  ) => Promise<{ folderId: string | null } & Record<string, unknown>>;
}

/** CRUD, reorder and move for one folder tree, plus moving its items between folders. */
function registerTree(app: App, spec: TreeRoutes): void {
  const { prefix, tree, tag } = spec;
  const tags = [tag];
  const label = `${spec.item} folder`;
  const moveBody = (field: string, description: string, extra: Record<string, TSchema> = {}) =>
    Type.Object({ ...extra, [field]: NullableUuid(description) });

  app.get(
    prefix,
    {
      config: view,
      schema: {
        tags,
        summary: `List ${label}s (flat, paginated, with parentId and sortOrder; ?tree=true: every folder nested)`,
        querystring: Type.Object({
          ...PaginationQueryFields,
          tree: Type.Optional(Type.Boolean({ default: false })),
          parentId: FolderFilter('only the children of this folder (`root`: the top level)'),
          q: SearchText(),
        }),
        response: {
          200: Type.Union([PageOf(Folder), Type.Object({ data: Type.Array(FolderNode) })]),
        },
      },
    },
    async (request) => (request.query.tree ? { data: await tree.tree() } : tree.list(request.query)),
  );

  app.post(
    prefix,
    {
      config: manage,
      schema: {
        tags,
        summary: `Create a ${label}`,
        body: Type.Object({
          name: Name,
          parentId: Type.Optional(NullableUuid('null or absent: the top level')),
        }),
        response: { 201: DataOf(Folder) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await tree.create(request.actor, request.body) }),
  );

  app.put(
    `${prefix}/reorder`,
    {
      config: manage,
      schema: {
        tags,
        summary: `Order the children of one folder: the listed ids first, in this order`,
        body: Type.Object({
          parentId: NullableUuid('the folder whose children are ordered; null: the top level'),
          ids: Type.Array(Type.String({ minLength: 1, maxLength: 255 }), {
            minItems: 1,
            maxItems: MAX_MOVE_IDS,
            uniqueItems: true,
          }),
        }),
        response: { 200: Type.Object({ data: Type.Array(Folder) }) },
      },
    },
    async (request) => ({
      data: await tree.reorder(request.actor, request.body.parentId, request.body.ids),
    }),
  );

  app.post(
    `${prefix}/move-${spec.items}`,
    {
      config: manage,
      schema: {
        tags,
        summary: `Move ${spec.items} into a folder, all or nothing`,
        body: moveBody('folderId', 'the target folder; null: the top level', {
          ids: Type.Array(Type.String({ maxLength: 255 }), { maxItems: MAX_MOVE_IDS }),
        }),
        response: {
          200: DataOf(
            Type.Object({
              folderId: Type.Union([Uuid(), Type.Null()]),
              [spec.items]: Type.Array(spec.itemSchema),
            }),
          ),
        },
      },
    },
    async (request) => {
      const body = request.body as { ids: string[]; folderId: string | null };
      return { data: (await spec.moveItems(request.actor, body.ids, body.folderId)) as never };
    },
  );

  app.get(
    `${prefix}/:id`,
    {
      config: view,
      schema: { tags, summary: `Get a ${label}`, params: IdParams, response: { 200: DataOf(Folder) } },
    },
    async (request) => ({ data: await tree.get(request.params.id) }),
  );

  app.put(
    `${prefix}/:id`,
    {
      config: manage,
      schema: {
        tags,
        summary: `Rename a ${label}`,
        params: IdParams,
        body: Type.Object({ name: Name }),
        response: { 200: DataOf(Folder) },
      },
    },
    async (request) => ({ data: await tree.rename(request.actor, request.params.id, request.body.name) }),
  );

  app.delete(
    `${prefix}/:id`,
    {
      config: manage,
      schema: {
        tags,
        summary: `Delete a ${label} (409 when it is not empty, unless ?recursive=true)`,
        params: IdParams,
        querystring: Type.Object({ recursive: Type.Optional(Type.Boolean({ default: false })) }),
        response: { 200: Success },
      },
    },
    async (request) => {
      await tree.delete(request.actor, request.params.id, request.query.recursive ?? false);
      return { success: true };
    },
  );

  app.put(
    `${prefix}/:id/move`,
    {
      config: manage,
      schema: {
        tags,
        summary: `Move a ${label} under another folder (null: the top level)`,
        params: IdParams,
        body: moveBody('parentId', 'the new parent folder; null: the top level'),
        response: { 200: DataOf(Folder) },
      },
    },
    async (request) => {
      const { parentId } = request.body as { parentId: string | null };
      return { data: await tree.move(request.actor, request.params.id, parentId) };
    },
  );
}

/** Logging schema folders, environment folders, schemas and environments (`logging:view|manage`). */
const loggingRoutes: GatewayModule = async (app) => {
  const logging = new LoggingService(app.deps.db, app.deps.audit);
  const typedApp = app as unknown as App;

  registerTree(typedApp, {
    prefix: '/api/logging/schema-folders',
    tree: logging.schemaFolders,
    tag: 'logging schemas',
    item: 'schema',
    items: 'schemas',
    itemSchema: Schema,
    moveItems: (actor, ids, folderId) => logging.moveSchemas(actor, ids, folderId),
  });
  registerTree(typedApp, {
    prefix: '/api/logging/environment-folders',
    tree: logging.environmentFolders,
    tag: 'logging environments',
    item: 'environment',
    items: 'environments',
    itemSchema: Environment,
    moveItems: (actor, ids, folderId) => logging.moveEnvironments(actor, ids, folderId),
  });

  const schemaTags = ['logging schemas'];
  app.get(
    '/api/logging/schemas',
    {
      config: view,
      schema: {
        tags: schemaTags,
        summary: 'List logging schemas',
        querystring: Type.Object({
          ...PaginationQueryFields,
          folderId: FolderFilter('only the schemas of this folder (`root`: outside any folder)'),
          q: SearchText(),
        }),
        response: { 200: PageOf(Schema) },
      },
    },
    async (request) => logging.listSchemas(request.query),
  );

  app.post(
    '/api/logging/schemas',
    {
      config: manage,
      schema: {
        tags: schemaTags,
        summary: 'Create a logging schema',
        body: Type.Object({
          name: Name,
          folderId: Type.Optional(NullableUuid('null or absent: the top level')),
          description: Type.Optional(Description),
          fields: Fields,
        }),
        response: { 201: DataOf(Schema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await logging.createSchema(request.actor, request.body) }),
  );

  app.get(
    '/api/logging/schemas/:id',
    {
      config: view,
      schema: {
        tags: schemaTags,
        summary: 'Get a logging schema',
        params: IdParams,
        response: { 200: DataOf(Schema) },
      },
    },
    async (request) => ({ data: await logging.getSchema(request.params.id) }),
  );

  app.put(
    '/api/logging/schemas/:id',
    {
      config: manage,
      schema: {
        tags: schemaTags,
        summary: 'Change a logging schema (only the fields sent change)',
        params: IdParams,
        body: Type.Object({
          name: Type.Optional(Name),
          folderId: Type.Optional(NullableUuid('null: the top level')),
          description: Type.Optional(Description),
          fields: Type.Optional(Fields),
        }),
        response: { 200: DataOf(Schema) },
      },
    },
    async (request) => ({
      data: await logging.updateSchema(request.actor, request.params.id, request.body),
    }),
  );

  app.delete(
    '/api/logging/schemas/:id',
    {
      config: manage,
      schema: {
        tags: schemaTags,
        summary: 'Delete a logging schema (409 while environments use it)',
        params: IdParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await logging.deleteSchema(request.actor, request.params.id);
      return { success: true };
    },
  );

  const environmentTags = ['logging environments'];
  app.get(
    '/api/logging/environments',
    {
      config: view,
      schema: {
        tags: environmentTags,
        summary: 'List logging environments',
        querystring: Type.Object({
          ...PaginationQueryFields,
          folderId: FolderFilter('only the environments of this folder (`root`: outside any folder)'),
          schemaId: Type.Optional(Uuid('only the environments using this schema')),
          q: SearchText(),
        }),
        response: { 200: PageOf(Environment) },
      },
    },
    async (request) => logging.listEnvironments(request.query),
  );

  app.post(
    '/api/logging/environments',
    {
      config: manage,
      schema: {
        tags: environmentTags,
        summary: 'Create a logging environment',
        body: Type.Object({
          name: Name,
          folderId: Type.Optional(NullableUuid('null or absent: the top level')),
          description: Type.Optional(Description),
          schemaId: Type.Optional(NullableUuid('the schema of its log records')),
          retentionDays: Type.Optional({ ...RetentionDays, default: DEFAULT_RETENTION_DAYS }),
        }),
        response: { 201: DataOf(Environment) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await logging.createEnvironment(request.actor, request.body) }),
  );

  app.get(
    '/api/logging/environments/:id',
    {
      config: view,
      schema: {
        tags: environmentTags,
        summary: 'Get a logging environment',
        params: IdParams,
        response: { 200: DataOf(Environment) },
      },
    },
    async (request) => ({ data: await logging.getEnvironment(request.params.id) }),
  );

  app.put(
    '/api/logging/environments/:id',
    {
      config: manage,
      schema: {
        tags: environmentTags,
        summary: 'Change a logging environment (only the fields sent change)',
        params: IdParams,
        body: Type.Object({
          name: Type.Optional(Name),
          folderId: Type.Optional(NullableUuid('null: the top level')),
          description: Type.Optional(Description),
          schemaId: Type.Optional(NullableUuid('null: no schema')),
          retentionDays: Type.Optional(RetentionDays),
        }),
        response: { 200: DataOf(Environment) },
      },
    },
    async (request) => ({
      data: await logging.updateEnvironment(request.actor, request.params.id, request.body),
    }),
  );

  app.delete(
    '/api/logging/environments/:id',
    {
      config: manage,
      schema: {
        tags: environmentTags,
        summary: 'Delete a logging environment',
        params: IdParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await logging.deleteEnvironment(request.actor, request.params.id);
      return { success: true };
    },
  );
};

export default loggingRoutes;
