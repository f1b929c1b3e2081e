import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { AuditActor } from '../../core/actor.js';
import { conflictOnDuplicate } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { notFound, unprocessable } from '../../core/errors.js';
import { trimmedName } from '../../core/names.js';
import { fetchPage, type Page } from '../../core/pagination.js';
import type { DbOrTx } from '../../db/client.js';
import {
  containerhostFolders,
  containerhostNodes,
  containerhostResourcePlacements,
} from '../../db/schema/index.js';
import type {
  Folder,
  FolderChanges,
  FolderCreation,
  FolderListQuery,
  ResourceReorder,
} from './schemas/folders.js';

type FolderRow = typeof containerhostFolders.$inferSelect;

/** Folders grouping resources of one type, and the sort order of resources on each node. */
export class FolderService {
  constructor(private readonly deps: Pick<Deps, 'db' | 'audit'>) {}

  async list(filter: FolderListQuery): Promise<Page<Folder>> {
    const where = filter.resourceType
      ? eq(containerhostFolders.resourceType, filter.resourceType)
      : undefined;
    return fetchPage(
      filter,
      async ({ limit, offset }) => {
        const rows = await this.deps.db
          .select()
          .from(containerhostFolders)
          .where(where)
          .orderBy(asc(containerhostFolders.sortOrder), asc(containerhostFolders.name))
          .limit(limit)
          .offset(offset);
        return this.withResources(this.deps.db, rows);
      },
      this.deps.db.select({ value: count() }).from(containerhostFolders).where(where),
    );
  }

  async get(id: string, db: DbOrTx = this.deps.db): Promise<Folder> {
    const [row] = await db.select().from(containerhostFolders).where(eq(containerhostFolders.id, id));
    if (!row) throw notFound({ folderId: id });
    return (await this.withResources(db, [row]))[0]!;
  }

  async create(actor: AuditActor, input: FolderCreation): Promise<Folder> {
    const name = trimmedName(input.name);
    return this.deps.db.transaction(async (tx) => {
      const [row] = (await conflictOnDuplicate(
        tx
          .insert(containerhostFolders)
          .values({ name, resourceType: input.resourceType, sortOrder: input.sortOrder ?? 0 })
          .returning(),
        'FOLDER_NAME_TAKEN',
        { name, resourceType: input.resourceType },
      )) as [FolderRow];
      await this.deps.audit.record(tx, actor, {
        action: 'containerhost.folder.created',
        targetType: 'containerhost_folder',
        targetId: row.id,
        metadata: { name, resourceType: row.resourceType, sortOrder: row.sortOrder },
      });
      return { ...row, resources: [] };
    });
  }

  async update(actor: AuditActor, id: string, input: FolderChanges): Promise<Folder> {
    const values: Partial<FolderRow> = { updatedAt: new Date() };
    if (input.name !== undefined) values.name = trimmedName(input.name);
    if (input.sortOrder !== undefined) values.sortOrder = input.sortOrder;
    return this.deps.db.transaction(async (tx) => {
      const [row] = await conflictOnDuplicate(
        tx.update(containerhostFolders).set(values).where(eq(containerhostFolders.id, id)).returning(),
        'FOLDER_NAME_TAKEN',
        { name: values.name },
      );
      if (!row) throw notFound({ folderId: id });
      await this.deps.audit.record(tx, actor, {
        action: 'containerhost.folder.updated',
        targetType: 'containerhost_folder',
        targetId: id,
        metadata: { name: row.name, sortOrder: row.sortOrder },
      });
      return this.get(id, tx);
    });
  }

  async remove(actor: AuditActor, id: string) {
    await this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .delete(containerhostFolders)
        .where(eq(containerhostFolders.id, id))
        .returning({ name: containerhostFolders.name, resourceType: containerhostFolders.resourceType });
      if (!row) throw notFound({ folderId: id });
      await this.deps.audit.record(tx, actor, {
        action: 'containerhost.folder.deleted',
        targetType: 'containerhost_folder',
        targetId: id,
        metadata: row,
      });
    });
  }

  /**
   * Upserts every item's sortOrder (and folder, when given) in one transaction; an unknown node or
   * folder fails the whole request before anything is written.
   */
  async reorder(actor: AuditActor, input: ResourceReorder): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const nodeIds = [...new Set(input.items.map((item) => item.nodeId))];
      const found = await tx
        .select({ id: containerhostNodes.id })
        .from(containerhostNodes)
        .where(inArray(containerhostNodes.id, nodeIds));
      const known = new Set(found.map((row) => row.id));
      const missing = nodeIds.filter((id) => !known.has(id));
      if (missing.length > 0) throw notFound({ nodeId: missing[0], missingNodeIds: missing });
      const folderIds = [
        ...new Set(
          input.items.map((item) => item.folderId).filter((id): id is string => typeof id === 'string'),
        ),
      ];
      if (folderIds.length > 0) {
        const folders = await tx
          .select({ id: containerhostFolders.id, resourceType: containerhostFolders.resourceType })
          .from(containerhostFolders)
          .where(inArray(containerhostFolders.id, folderIds));
        const missingFolder = folderIds.find((id) => !folders.some((f) => f.id === id));
        if (missingFolder) throw notFound({ folderId: missingFolder });
        const wrong = folders.find((f) => f.resourceType !== input.resourceType);
        if (wrong)
          throw unprocessable(
            'FOLDER_TYPE_MISMATCH',
            `folder ${wrong.id} holds ${wrong.resourceType} resources, not ${input.resourceType}`,
          );
      }
      const seen = new Set<string>();
      for (const [index, item] of input.items.entries()) {
        const key = `${item.nodeId}\u0000${item.resourceKey}`;
        if (seen.has(key))
          throw unprocessable('DUPLICATE_ITEM', `items[${index}] repeats a resource listed before it`, {
            index,
          });
        seen.add(key);
      }
      const now = new Date();
      const rows = input.items.map((item) => ({
        nodeId: item.nodeId,
        resourceType: input.resourceType,
        resourceKey: item.resourceKey,
        sortOrder: item.sortOrder,
        folderId: item.folderId ?? null,
        updatedAt: now,
      }));
      const hasFolder = input.items.map((item) => item.folderId !== undefined);
      // Items that name no folder keep the folder they had; the others set it (null takes them out).
      const withFolder = rows.filter((_, index) => hasFolder[index]);
      const withoutFolder = rows.filter((_, index) => !hasFolder[index]);
      await upsertPlacements(tx, withFolder, {
        sortOrder: sql`excluded.sort_order`,
        folderId: sql`excluded.folder_id`,
        updatedAt: now,
      });
      await upsertPlacements(tx, withoutFolder, { sortOrder: sql`excluded.sort_order`, updatedAt: now });
      await this.deps.audit.record(tx, actor, {
        action: 'containerhost.resources.reordered',
        targetType: 'containerhost_resources',
        targetId: input.resourceType,
        metadata: { resourceType: input.resourceType, items: input.items },
      });
    });
  }

  private async withResources(db: DbOrTx, rows: FolderRow[]): Promise<Folder[]> {
    if (rows.length === 0) return [];
    const placements = await db
      .select()
      .from(containerhostResourcePlacements)
      .where(
        and(
          inArray(
            containerhostResourcePlacements.folderId,
            rows.map((row) => row.id),
          ),
        ),
      )
      .orderBy(
        asc(containerhostResourcePlacements.sortOrder),
        asc(containerhostResourcePlacements.resourceKey),
      );
    return rows.map((row) => ({
      ...row,
      resources: placements
        .filter((p) => p.folderId === row.id)
        .map((p) => ({ nodeId: p.nodeId, resourceKey: p.resourceKey, sortOrder: p.sortOrder })),
    }));
  }
}

/** Inserts placements; one that exists already (same node, type and key) gets only the columns in `set`. */
async function upsertPlacements(
  tx: DbOrTx,
  rows: (typeof containerhostResourcePlacements.$inferInsert)[],
  set: PgUpdateSetSource<typeof containerhostResourcePlacements>,
): Promise<void> {
  if (rows.length === 0) return;
  await tx
    .insert(containerhostResourcePlacements)
    .values(rows)
    .onConflictDoUpdate({
      target: [
        containerhostResourcePlacements.nodeId,
        containerhostResourcePlacements.resourceType,
        containerhostResourcePlacements.resourceKey,
      ],
      set,
    });
}
