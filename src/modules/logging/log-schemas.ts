import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { conflict, notFound, validationError } from '../../core/errors.js';
import { isUuid } from '../../core/ids.js';
import { trimmedName } from '../../core/names.js';
import { fetchPage, toPage } from '../../core/pagination.js';
import { containsText } from '../../core/text-filters.js';
import type { DbOrTx, Tx } from '../../db/client.js';
import {
  type LogFieldDefinition,
  loggingEnvironments,
  loggingSchemaFolders,
  loggingSchemas,
} from '../../db/schema/index.js';
import { FolderTree, folderCondition } from './folder-tree.js';
import type {
  FieldDefinition,
  LogSchema,
  LogSchemaChanges,
  LogSchemaListQuery,
  NewLogSchema,
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

/**
 * Log schemas, the field lists that describe log records, in their folder tree. A schema that
 * environments still use cannot be deleted, alone or with its folder.
 */
export class LogSchemaService {
  readonly folders: FolderTree;

  constructor(private readonly deps: Pick<Deps, 'db' | 'audit'>) {
    this.folders = new FolderTree({
      ...deps,
      spec: {
        kind: 'schema',
        folders: loggingSchemaFolders,
        items: loggingSchemas,
        lock: 'schemaFolderTree',
        beforeItemsDeleted: (tx, ids) => this.refuseSchemasInUse(tx, ids),
      },
    });
  }

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
      await this.folders.lock(tx);
      if (folderId !== null) await this.folders.requireFolder(tx, folderId, 'folderId');
      const [row] = await this.folders.uniqueName(name, () =>
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
      await this.folders.lock(tx);
      const before = await this.getSchema(id, tx);
      if (changes.folderId) await this.folders.requireFolder(tx, changes.folderId, 'folderId');
      await this.folders.uniqueName(changes.name ?? before.name, () =>
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
      await this.folders.lock(tx);
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
    const result = await this.folders.moveItems(actor, ids, folderId);
    return { folderId, schemas: await this.schemasByIds(result.ids) };
  }

  /** 409 SCHEMA_IN_USE, naming the environments, when environments still describe their records with one of these schemas. */
  private async refuseSchemasInUse(tx: Tx, schemaIds: string[]): Promise<void> {
    const users = await tx
      .select({
        id: loggingEnvironments.id,
        name: loggingEnvironments.name,
        schemaId: loggingEnvironments.schemaId,
      })
      .from(loggingEnvironments)
      .where(inArray(loggingEnvironments.schemaId, schemaIds))
      .orderBy(asc(loggingEnvironments.id))
      .limit(100);
    if (users.length > 0) {
      throw conflict('SCHEMA_IN_USE', {
        explanation: `${environmentsInWords(users.map((row) => row.name))} still ${users.length === 1 ? 'uses' : 'use'} this schema; point ${users.length === 1 ? 'it' : 'them'} at another schema or delete ${users.length === 1 ? 'it' : 'them'} first`,
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
}

/** `the environment prod`, `the environments prod, staging and 3 more`: who still uses a schema. */
function environmentsInWords(names: string[]): string {
  const shown = names.slice(0, 5).join(', ');
  const more = names.length > 5 ? ` and ${names.length - 5} more` : '';
  return `${names.length === 1 ? 'the environment' : 'the environments'} ${shown}${more}`;
}
