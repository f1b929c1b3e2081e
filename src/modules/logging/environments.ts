import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { Actor, AuditActor } from '../../core/actor.js';
import { visibleResources } from '../../core/auth/visible-resources.js';
import type { Deps } from '../../core/deps.js';
import { notFound } from '../../core/errors.js';
import { isUuid } from '../../core/ids.js';
import { trimmedName } from '../../core/names.js';
import { fetchPage, toPage } from '../../core/pagination.js';
import { containsText } from '../../core/text-filters.js';
import type { DbOrTx, Tx } from '../../db/client.js';
import { loggingEnvironmentFolders, loggingEnvironments, loggingSchemas } from '../../db/schema/index.js';
import { changedSettings, environmentColumns, environmentView, settingColumns } from './environment-rows.js';
import { FolderTree, folderCondition, type ItemTable } from './folder-tree.js';
import {
  DEFAULT_RETENTION_DAYS,
  type LogEnvironment,
  type LogEnvironmentChanges,
  type LogEnvironmentListQuery,
  type NewLogEnvironment,
} from './schemas.js';

/**
 * Log environments, which keep records (of one schema, for their retention), in their folder tree.
 *
 * Locks are always taken schema tree first, environment tree second, so writers never deadlock.
 */
export class LogEnvironmentService {
  readonly folders: FolderTree;

  constructor(private readonly deps: Pick<Deps, 'db' | 'audit'> & { schemaFolders: FolderTree }) {
    this.folders = new FolderTree({
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
      const [row] = await this.folders.uniqueName(name, () =>
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
      await this.folders.uniqueName(changes.name ?? before.name, () =>
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
      await this.folders.lock(tx);
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
    const result = await this.folders.moveItems(actor, ids, folderId);
    return { folderId, environments: await this.environmentsByIds(result.ids) };
  }

  /**
   * Locks what an environment change depends on, in the fixed order (schema tree, then environment
   * tree), and checks that the referenced schema and folder exist.
   */
  private async lockForEnvironment(tx: Tx, schemaId: string | null, folderId: string | null) {
    if (schemaId !== null) {
      await this.deps.schemaFolders.lock(tx);
      const [schema] = await tx
        .select({ id: loggingSchemas.id })
        .from(loggingSchemas)
        .where(eq(loggingSchemas.id, schemaId));
      if (!schema) throw notFound({ schemaId });
    }
    await this.folders.lock(tx);
    if (folderId !== null) await this.folders.requireFolder(tx, folderId, 'folderId');
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
