import { and, asc, count, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Actor, AuditActor } from '../../core/actor.js';
import { visibleResources } from '../../core/auth/visible-resources.js';
import type { Deps } from '../../core/deps.js';
import { conflict, notFound, validationError } from '../../core/errors.js';
import { isUuid } from '../../core/ids.js';
import { trimmedName } from '../../core/names.js';
import { fetchPage, toPage } from '../../core/pagination.js';
import { containsText } from '../../core/text-filters.js';
import type { DbOrTx, Tx } from '../../db/client.js';
import {
  type LogFieldDefinition,
  loggingEnvironmentFolders,
  loggingEnvironments,
  loggingSchemaFolders,
  loggingSchemas,
} from '../../db/schema/index.js';
import { changedSettings, environmentColumns, environmentView, settingColumns } from './environment-rows.js';
import { FolderTree, type ItemTable } from './folder-tree.js';
import {
  DEFAULT_RETENTION_DAYS,
  type FieldDefinition,
  type LogEnvironment,
  type LogEnvironmentChanges,
  type LogEnvironmentListQuery,
  type LogSchema,
  type LogSchemaChanges,
  type LogSchemaListQuery,
  type NewLogEnvironment,
  type NewLogSchema,
} from './schemas.js';

const schemaColumns = {
  id: loggingSchemas.id,
  name: loggingSchemas.name,
  folderId: loggingSchemas.folderId,
  description: loggingSchemas.description,
  fields: loggingSchemas.fields,
  createdAt: loggingSchemas.createdAt,
  updatedAt: loggingSchemas.updatedAt,
};

/** Field names of one schema are unique; a duplicate names the later occurrence. */
function checkFields(fields: FieldDefinition[]): LogFieldDefinition[] {
  const seen = new Set<string>();
  const issues = fields.flatMap((field, index) => {
    if (!seen.has(field.name)) {
      seen.add(field.name);
      return [];
    }
    return [{ path: ['fields', index, 'name'], message: `duplicate field name ${field.name}` }];
  });
  if (issues.length > 0) throw validationError(issues);
  return fields.map(({ name, type, required }) => ({ name, type, required }));
}

/** The condition of a `folderId` filter, or `false` when it cannot match anything. */
function folderCondition(column: AnyPgColumn, folderId: string | undefined): SQL | false | undefined {
  if (folderId === undefined) return undefined;
  if (folderId === 'root') return isNull(column);
  return isUuid(folderId) ? eq(column, folderId) : false;
}

/**
 * Logging configuration: two folder trees (schema folders and environment folders), the schemas
 * that describe log records and the environments that keep them.
 *
 * Locks are always taken schema tree first, environment tree second, so writers never deadlock.
 */
export class LoggingService {
  readonly schemaFolders: FolderTree;
  readonly environmentFolders: FolderTree;

  constructor(private readonly deps: Pick<Deps, 'db' | 'audit'>) {
    this.schemaFolders = new FolderTree({
      ...deps,
      spec: {
        kind: 'schema',
        folders: loggingSchemaFolders,
        items: loggingSchemas,
        lock: 'schemaFolderTree',
        beforeItemsDeleted: (tx, ids) => this.refuseSchemasInUse(tx, ids),
      },
    });
    this.environmentFolders = new FolderTree({
      ...deps,
      spec: {
        kind: 'environment',
        folders: loggingEnvironmentFolders,
        // Only the columns both item tables share (id, name, folderId, updatedAt) are used through it.
        items: loggingEnvironments as unknown as ItemTable,
        lock: 'environmentFolderTree',
      },
    });
  }

  // Schemas

  async listSchemas(filter: LogSchemaListQuery) {
    const folder = folderCondition(loggingSchemas.folderId, filter.folderId);
    if (folder === false) return toPage([], 0, filter);
    const where = and(folder, filter.q ? containsText(loggingSchemas.name, filter.q) : undefined);
    return fetchPage(
      filter,
      ({ limit, offset }) =>
        this.deps.db
          .select(schemaColumns)
          .from(loggingSchemas)
          .where(where)
          .orderBy(asc(loggingSchemas.name), asc(loggingSchemas.id))
          .limit(limit)
          .offset(offset),
      this.deps.db.select({ value: count() }).from(loggingSchemas).where(where),
    );
  }

  async getSchema(id: string, db: DbOrTx = this.deps.db): Promise<LogSchema> {
    const row = isUuid(id)
      ? (await db.select(schemaColumns).from(loggingSchemas).where(eq(loggingSchemas.id, id)))[0]
      : undefined;
    if (!row) throw notFound({ schemaId: id });
    return row;
  }

  async createSchema(actor: AuditActor, input: NewLogSchema): Promise<LogSchema> {
    const name = trimmedName(input.name);
    const fields = checkFields(input.fields);
    const folderId = input.folderId ?? null;
    const description = input.description ?? '';
    return this.deps.db.transaction(async (tx) => {
      await this.schemaFolders.lock(tx);
      if (folderId !== null) await this.schemaFolders.requireFolder(tx, folderId, 'folderId');
      const [row] = await this.schemaFolders.uniqueName(name, () =>
        tx
          .insert(loggingSchemas)
          .values({ name, folderId, description, fields })
          .returning({ id: loggingSchemas.id }),
      );
      await this.deps.audit.record(tx, actor, {
        action: 'logging.schema.created',
        targetType: 'schema',
        targetId: row!.id,
        metadata: { name, folderId, fieldCount: fields.length },
      });
      return this.getSchema(row!.id, tx);
    });
  }

  async updateSchema(actor: AuditActor, id: string, input: LogSchemaChanges): Promise<LogSchema> {
    const changes: Partial<typeof loggingSchemas.$inferInsert> = {};
    if (input.name !== undefined) changes.name = trimmedName(input.name);
    if (input.fields !== undefined) changes.fields = checkFields(input.fields);
    if (input.description !== undefined) changes.description = input.description;
    if (input.folderId !== undefined) changes.folderId = input.folderId;
    return this.deps.db.transaction(async (tx) => {
      await this.schemaFolders.lock(tx);
      const before = await this.getSchema(id, tx);
      if (changes.folderId) await this.schemaFolders.requireFolder(tx, changes.folderId, 'folderId');
      await this.schemaFolders.uniqueName(changes.name ?? before.name, () =>
        tx
          .update(loggingSchemas)
          .set({ ...changes, updatedAt: new Date() })
          .where(eq(loggingSchemas.id, id)),
      );
      await this.deps.audit.record(tx, actor, {
        action: 'logging.schema.updated',
        targetType: 'schema',
        targetId: id,
        metadata: {
          changed: Object.keys(changes).sort(),
          ...(changes.name !== undefined ? { name: { from: before.name, to: changes.name } } : {}),
          ...(changes.folderId !== undefined
            ? { folderId: { from: before.folderId, to: changes.folderId } }
            : {}),
        },
      });
      return this.getSchema(id, tx);
    });
  }

  async deleteSchema(actor: AuditActor, id: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      await this.schemaFolders.lock(tx);
      const schema = await this.getSchema(id, tx);
      await this.refuseSchemasInUse(tx, [id]);
      await tx.delete(loggingSchemas).where(eq(loggingSchemas.id, id));
      await this.deps.audit.record(tx, actor, {
        action: 'logging.schema.deleted',
        targetType: 'schema',
        targetId: id,
        metadata: { name: schema.name, folderId: schema.folderId },
      });
    });
  }

  async moveSchemas(actor: AuditActor, ids: string[], folderId: string | null) {
    const result = await this.schemaFolders.moveItems(actor, ids, folderId);
    return { folderId, schemas: await this.schemasByIds(result.ids) };
  }

  // Environments

  /** The environments the actor may see (all with an area-wide scope). */
  async listEnvironments(actor: Actor, filter: LogEnvironmentListQuery) {
    const folder = folderCondition(loggingEnvironments.folderId, filter.folderId);
    if (folder === false) return toPage([], 0, filter);
    if (filter.schemaId !== undefined && !isUuid(filter.schemaId)) return toPage([], 0, filter);
    const where = and(
      visibleResources(loggingEnvironments.id, actor, 'logging:view'),
      folder,
      filter.schemaId !== undefined ? eq(loggingEnvironments.schemaId, filter.schemaId) : undefined,
      filter.q ? containsText(loggingEnvironments.name, filter.q) : undefined,
    );
    return fetchPage(
      filter,
      ({ limit, offset }) =>
        this.deps.db
          .select(environmentColumns)
          .from(loggingEnvironments)
          .where(where)
          .orderBy(asc(loggingEnvironments.name), asc(loggingEnvironments.id))
          .limit(limit)
          .offset(offset),
      this.deps.db.select({ value: count() }).from(loggingEnvironments).where(where),
      environmentView,
    );
  }

  async getEnvironment(id: string, db: DbOrTx = this.deps.db): Promise<LogEnvironment> {
    const row = isUuid(id)
      ? (
          await db.select(environmentColumns).from(loggingEnvironments).where(eq(loggingEnvironments.id, id))
        )[0]
      : undefined;
    if (!row) throw notFound({ environmentId: id });
    return environmentView(row);
  }

  async createEnvironment(actor: AuditActor, input: NewLogEnvironment): Promise<LogEnvironment> {
    const name = trimmedName(input.name);
    const values = {
      name,
      folderId: input.folderId ?? null,
      description: input.description ?? '',
      schemaId: input.schemaId ?? null,
      retentionDays: input.retentionDays ?? DEFAULT_RETENTION_DAYS,
      ...settingColumns(input),
    };
    return this.deps.db.transaction(async (tx) => {
      await this.lockForEnvironment(tx, values.schemaId, values.folderId);
      const [row] = await this.environmentFolders.uniqueName(name, () =>
        tx.insert(loggingEnvironments).values(values).returning({ id: loggingEnvironments.id }),
      );
      await this.deps.audit.record(tx, actor, {
        action: 'logging.environment.created',
        targetType: 'environment',
        targetId: row!.id,
        metadata: values,
      });
      return this.getEnvironment(row!.id, tx);
    });
  }

  async updateEnvironment(
    actor: AuditActor,
    id: string,
    input: LogEnvironmentChanges,
  ): Promise<LogEnvironment> {
    const changes: Partial<typeof loggingEnvironments.$inferInsert> = {};
    if (input.name !== undefined) changes.name = trimmedName(input.name);
    if (input.description !== undefined) changes.description = input.description;
    if (input.folderId !== undefined) changes.folderId = input.folderId;
    if (input.schemaId !== undefined) changes.schemaId = input.schemaId;
    if (input.retentionDays !== undefined) changes.retentionDays = input.retentionDays;
    Object.assign(changes, settingColumns(input));
    return this.deps.db.transaction(async (tx) => {
      await this.lockForEnvironment(tx, changes.schemaId ?? null, changes.folderId ?? null);
      const before = await this.getEnvironment(id, tx);
      await this.environmentFolders.uniqueName(changes.name ?? before.name, () =>
        tx
          .update(loggingEnvironments)
          .set({ ...changes, updatedAt: new Date() })
          .where(eq(loggingEnvironments.id, id)),
      );
      const metadata = { changed: Object.keys(changes).sort(), ...changedSettings(before, changes) };
      await this.deps.audit.record(tx, actor, {
        action: 'logging.environment.updated',
        targetType: 'environment',
        targetId: id,
        metadata,
      });
      return this.getEnvironment(id, tx);
    });
  }

  async deleteEnvironment(actor: AuditActor, id: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      await this.environmentFolders.lock(tx);
      const environment = await this.getEnvironment(id, tx);
      await tx.delete(loggingEnvironments).where(eq(loggingEnvironments.id, id));
      await this.deps.audit.record(tx, actor, {
        action: 'logging.environment.deleted',
        targetType: 'environment',
        targetId: id,
        metadata: { name: environment.name, folderId: environment.folderId },
      });
    });
  }

  async moveEnvironments(actor: AuditActor, ids: string[], folderId: string | null) {
    const result = await this.environmentFolders.moveItems(actor, ids, folderId);
    return { folderId, environments: await this.environmentsByIds(result.ids) };
  }

  // Helpers

  /**
   * Locks what an environment change depends on, in the fixed order (schema tree, then environment
   * tree), and checks that the referenced schema and folder exist.
   */
  private async lockForEnvironment(tx: Tx, schemaId: string | null, folderId: string | null) {
    if (schemaId !== null) {
      await this.schemaFolders.lock(tx);
      const [schema] = await tx
        .select({ id: loggingSchemas.id })
        .from(loggingSchemas)
        .where(eq(loggingSchemas.id, schemaId));
      if (!schema) throw notFound({ schemaId });
    }
    await this.environmentFolders.lock(tx);
    if (folderId !== null) await this.environmentFolders.requireFolder(tx, folderId, 'folderId');
  }

  /** 409 SCHEMA_IN_USE when environments still describe their records with one of these schemas. */
  private async refuseSchemasInUse(tx: Tx, schemaIds: string[]): Promise<void> {
    const users = await tx
      .select({ id: loggingEnvironments.id, schemaId: loggingEnvironments.schemaId })
      .from(loggingEnvironments)
      .where(inArray(loggingEnvironments.schemaId, schemaIds))
      .orderBy(asc(loggingEnvironments.id))
      .limit(100);
    if (users.length > 0) {
      throw conflict('SCHEMA_IN_USE', {
        explanation: 'environments still use this schema; point them at another schema or delete them first',
        schemaIds: [...new Set(users.map((row) => row.schemaId))],
        environmentIds: users.map((row) => row.id),
      });
    }
  }

  private async schemasByIds(ids: string[]): Promise<LogSchema[]> {
    const wanted = ids.filter(isUuid);
    if (wanted.length === 0) return [];
    return this.deps.db
      .select(schemaColumns)
      .from(loggingSchemas)
      .where(inArray(loggingSchemas.id, wanted))
      .orderBy(asc(loggingSchemas.name), asc(loggingSchemas.id));
  }

  private async environmentsByIds(ids: string[]): Promise<LogEnvironment[]> {
    const wanted = ids.filter(isUuid);
    if (wanted.length === 0) return [];
    const rows = await this.deps.db
      .select(environmentColumns)
      .from(loggingEnvironments)
      .where(inArray(loggingEnvironments.id, wanted))
      .orderBy(asc(loggingEnvironments.name), asc(loggingEnvironments.id));
    return rows.map(environmentView);
  }
}
