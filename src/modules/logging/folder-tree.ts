import { and, asc, count, eq, getTableName, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { AuditActor } from '../../core/actor.js';
import { conflictOnDuplicate } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { conflict, notFound, unprocessable } from '../../core/errors.js';
import { isUuid } from '../../core/ids.js';
import { trimmedName } from '../../core/names.js';
import { fetchPage, toPage } from '../../core/pagination.js';
import { containsText } from '../../core/text-filters.js';
import type { DbOrTx, Tx } from '../../db/client.js';
import { type AdvisoryLock, lockForTransaction } from '../../db/locks.js';
import type { LoggingFolderTable, loggingSchemas } from '../../db/schema/index.js';
import { applySiblingOrder, isAncestorOrSelf, subtreeIds } from './folder-queries.js';
import type { Folder, FolderListQuery, FolderNode, NewFolder } from './schemas.js';

export type FolderTable = LoggingFolderTable;
/**
 * The columns every item table (schemas, environments) shares: id, name, folderId, updatedAt. Only
 * those are touched through this type.
 */
export type ItemTable = typeof loggingSchemas;

export interface TreeSpec {
  /** `schema` or `environment`: names the audit actions (`logging.schema_folder.moved`). */
  kind: 'schema' | 'environment';
  folders: FolderTable;
  items: ItemTable;
  /** Transaction-scoped advisory lock that orders every structural change of this tree. */
  lock: AdvisoryLock;
  /** Runs before items are deleted with their folders (e.g. refuse schemas still in use). */
  beforeItemsDeleted?: (tx: Tx, itemIds: string[]) => Promise<void>;
}

const missingIds = (wanted: string[], found: { id: string }[]) => {
  const present = new Set(found.map((row) => row.id));
  return wanted.filter((id) => !present.has(id));
};

/**
 * One folder tree (schema folders or environment folders) and the membership of its items.
 *
 * Every change to the tree's shape or to which folder an item sits in takes the tree's advisory
 * lock first, inside its transaction. Two moves that would together close a cycle therefore run one
 * after the other on PostgreSQL: the second sees the first one's result and is refused. A move
 * walks only the ancestors of its target (O(depth)), never the whole tree.
 */
export class FolderTree {
  private readonly folders: FolderTable;
  private readonly items: ItemTable;
  private readonly folderTable: ReturnType<typeof sql.identifier>;
  readonly folderType: `${TreeSpec['kind']}_folder`;
  readonly itemType: TreeSpec['kind'];

  private readonly spec: TreeSpec;

  constructor(private readonly deps: Pick<Deps, 'db' | 'audit'> & { spec: TreeSpec }) {
    const { spec } = deps;
    this.spec = spec;
    this.folders = spec.folders;
    this.items = spec.items;
    this.folderTable = sql.identifier(getTableName(spec.folders));
    this.folderType = `${spec.kind}_folder`;
    this.itemType = spec.kind;
  }

  /** Takes the tree's lock for the rest of the transaction. */
  async lock(tx: Tx): Promise<void> {
    await lockForTransaction(tx, this.spec.lock);
  }

  async list(filter: FolderListQuery) {
    const f = this.folders;
    const conditions: SQL[] = [];
    if (filter.parentId === 'root') conditions.push(isNull(f.parentId));
    else if (filter.parentId !== undefined) {
      if (!isUuid(filter.parentId)) return toPage([], 0, filter);
      conditions.push(eq(f.parentId, filter.parentId));
    }
    if (filter.q) conditions.push(containsText(f.name, filter.q));
    const where = and(...conditions);
    return fetchPage(
      filter,
      ({ limit, offset }) =>
        this.deps.db
          .select(this.columns())
          .from(f)
          .where(where)
          .orderBy(sql`${f.parentId} nulls first`, asc(f.sortOrder), asc(f.name), asc(f.id))
          .limit(limit)
          .offset(offset),
      this.deps.db.select({ value: count() }).from(f).where(where),
    );
  }

  /** Every folder, nested under its parent; siblings in their sort order. */
  async tree(): Promise<FolderNode[]> {
    const f = this.folders;
    const rows = await this.deps.db
      .select(this.columns())
      .from(f)
      .orderBy(asc(f.sortOrder), asc(f.name), asc(f.id));
    const nodes = new Map<string, FolderNode>(rows.map((row) => [row.id, { ...row, children: [] }]));
    const roots: FolderNode[] = [];
    for (const node of nodes.values()) {
      const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
      (parent ? parent.children : roots).push(node);
    }
    return roots;
  }

  async get(id: string, db: DbOrTx = this.deps.db): Promise<Folder> {
    const folder = isUuid(id)
      ? (await db.select(this.columns()).from(this.folders).where(eq(this.folders.id, id)))[0]
      : undefined;
    if (!folder) throw notFound({ [`${this.spec.kind}FolderId`]: id });
    return folder;
  }

  async create(actor: AuditActor, input: NewFolder) {
    const name = trimmedName(input.name);
    const parentId = input.parentId ?? null;
    return this.deps.db.transaction(async (tx) => {
      await this.lock(tx);
      if (parentId !== null) await this.requireFolder(tx, parentId, 'parentId');
      const sortOrder = await this.nextSortOrder(tx, parentId);
      const [row] = await this.uniqueName(name, () =>
        tx.insert(this.folders).values({ name, parentId, sortOrder }).returning({ id: this.folders.id }),
      );
      await this.deps.audit.record(tx, actor, {
        action: `logging.${this.folderType}.created`,
        targetType: this.folderType,
        targetId: row!.id,
        metadata: { name, parentId },
      });
      return this.get(row!.id, tx);
    });
  }

  async rename(actor: AuditActor, id: string, rawName: string) {
    const name = trimmedName(rawName);
    return this.deps.db.transaction(async (tx) => {
      const before = await this.get(id, tx);
      if (before.name === name) return before;
      await this.uniqueName(name, () =>
        tx.update(this.folders).set({ name, updatedAt: new Date() }).where(eq(this.folders.id, id)),
      );
      await this.deps.audit.record(tx, actor, {
        action: `logging.${this.folderType}.renamed`,
        targetType: this.folderType,
        targetId: id,
        metadata: { from: before.name, to: name },
      });
      return this.get(id, tx);
    });
  }

  /**
   * Deletes a folder. A folder with sub-folders or items is refused (409) unless `recursive`, which
   * deletes the whole subtree and the items in it.
   */
  async delete(actor: AuditActor, id: string, recursive: boolean): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      await this.lock(tx);
      const folder = await this.get(id, tx);
      const folderIds = await subtreeIds(tx, this.folderTable, id);
      const itemRows = await tx
        .select({ id: this.items.id })
        .from(this.items)
        .where(inArray(this.items.folderId, folderIds));
      const itemIds = itemRows.map((row) => row.id);
      if (!recursive && (folderIds.length > 1 || itemIds.length > 0)) {
        throw conflict('FOLDER_NOT_EMPTY', {
          explanation: `the folder holds ${folderIds.length - 1} folder(s) and ${itemIds.length} ${this.itemType}(s); delete them first or pass ?recursive=true`,
          folderCount: folderIds.length - 1,
          [`${this.itemType}Count`]: itemIds.length,
        });
      }
      if (itemIds.length > 0) {
        await this.spec.beforeItemsDeleted?.(tx, itemIds);
        await tx.delete(this.items).where(inArray(this.items.id, itemIds));
      }
      // One statement: the self-reference is checked at its end, when the whole subtree is gone.
      await tx.delete(this.folders).where(inArray(this.folders.id, folderIds));
      await this.deps.audit.record(tx, actor, {
        action: `logging.${this.folderType}.deleted`,
        targetType: this.folderType,
        targetId: id,
        metadata: {
          name: folder.name,
          parentId: folder.parentId,
          recursive,
          deletedFolderIds: folderIds.slice(1),
          deletedItemIds: itemIds,
        },
      });
    });
  }

  /**
   * Puts the listed children of `parentId` first, in the given order; the other children keep their
   * relative order after them.
   */
  async reorder(actor: AuditActor, parentId: string | null, ids: string[]): Promise<Folder[]> {
    return this.deps.db.transaction(async (tx) => {
      await this.lock(tx);
      if (parentId !== null) await this.requireFolder(tx, parentId, 'parentId');
      const wanted = ids.filter(isUuid);
      const found = wanted.length
        ? await tx
            .select({ id: this.folders.id, parentId: this.folders.parentId })
            .from(this.folders)
            .where(inArray(this.folders.id, wanted))
        : [];
      const missing = missingIds(ids, found);
      if (missing.length > 0) throw notFound({ missingIds: missing });
      const strangers = found.filter((row) => row.parentId !== parentId).map((row) => row.id);
      if (strangers.length > 0) {
        throw unprocessable(
          'NOT_A_CHILD',
          'every id must be a direct child of parentId; move a folder before ordering it',
          { parentId, ids: strangers },
        );
      }
      const siblings = await this.children(tx, parentId);
      const listed = new Set(ids);
      const order = [...ids, ...siblings.map((row) => row.id).filter((id) => !listed.has(id))];
      await applySiblingOrder(tx, this.folderTable, order);
      await this.deps.audit.record(tx, actor, {
        action: `logging.${this.folderType}.reordered`,
        targetType: this.folderType,
        targetId: parentId,
        metadata: { parentId, order },
      });
      return this.children(tx, parentId);
    });
  }

  /**
   * Moves a folder under `parentId` (null = root), at the end of its new siblings. Refuses a move
   * under the folder itself or one of its descendants (422), leaving everything unchanged.
   */
  async move(actor: AuditActor, id: string, parentId: string | null): Promise<Folder> {
    return this.deps.db.transaction(async (tx) => {
      await this.lock(tx);
      const folder = await this.get(id, tx);
      if (parentId !== null) {
        await this.requireFolder(tx, parentId, 'parentId');
        if (await isAncestorOrSelf(tx, this.folderTable, id, parentId)) {
          throw unprocessable(
            'CIRCULAR_REFERENCE',
            parentId === id
              ? 'a folder cannot be moved under itself'
              : 'the target folder is inside the folder being moved; a folder cannot be moved under one of its descendants',
            { id, parentId },
          );
        }
      }
      if (folder.parentId === parentId) return folder;
      const sortOrder = await this.nextSortOrder(tx, parentId);
      await this.uniqueName(folder.name, () =>
        tx
          .update(this.folders)
          .set({ parentId, sortOrder, updatedAt: new Date() })
          .where(eq(this.folders.id, id)),
      );
      await this.deps.audit.record(tx, actor, {
        action: `logging.${this.folderType}.moved`,
        targetType: this.folderType,
        targetId: id,
        metadata: { name: folder.name, fromParentId: folder.parentId, toParentId: parentId },
      });
      return this.get(id, tx);
    });
  }

  /**
   * Moves items into `folderId` (null = root), all or nothing. Unknown ids and an unknown folder are
   * named in the 404; a name already used in the target folder is a 409.
   */
  async moveItems(actor: AuditActor, rawIds: string[], folderId: string | null) {
    const ids = [...new Set(rawIds)];
    return this.deps.db.transaction(async (tx) => {
      await this.lock(tx);
      const wanted = ids.filter(isUuid);
      const rows = wanted.length
        ? await tx
            .select({ id: this.items.id, name: this.items.name, folderId: this.items.folderId })
            .from(this.items)
            .where(inArray(this.items.id, wanted))
        : [];
      const missing = missingIds(ids, rows);
      const folderMissing = folderId !== null && !(await this.folderExists(tx, folderId));
      if (missing.length > 0 || folderMissing) {
        throw notFound({
          ...(missing.length > 0 ? { missingIds: missing } : {}),
          ...(folderMissing ? { folderId } : {}),
        });
      }
      const moving = rows.filter((row) => row.folderId !== folderId);
      await this.refuseNameClashes(tx, moving, folderId);
      if (moving.length > 0) {
        await tx
          .update(this.items)
          .set({ folderId, updatedAt: new Date() })
          .where(
            inArray(
              this.items.id,
              moving.map((row) => row.id),
            ),
          );
      }
      await this.deps.audit.recordMany(
        tx,
        moving.map((row) => ({
          actor,
          entry: {
            action: `logging.${this.itemType}.moved`,
            targetType: this.itemType,
            targetId: row.id,
            metadata: { name: row.name, fromFolderId: row.folderId, toFolderId: folderId },
          },
        })),
      );
      return { folderId, ids };
    });
  }

  /** 404 naming `field` unless the folder exists; for use inside a locked transaction. */
  async requireFolder(tx: DbOrTx, id: string, field: string): Promise<void> {
    if (!(await this.folderExists(tx, id))) throw notFound({ [field]: id });
  }

  /** Turns a sibling-name collision of `run` into 409 NAME_TAKEN. */
  uniqueName<T>(name: string, run: () => Promise<T>): Promise<T> {
    return conflictOnDuplicate(run(), 'NAME_TAKEN', {
      explanation: `a sibling is already named ${JSON.stringify(name)}`,
      name,
    });
  }

  private async refuseNameClashes(
    tx: Tx,
    moving: { id: string; name: string }[],
    folderId: string | null,
  ): Promise<void> {
    if (moving.length === 0) return;
    const names = moving.map((row) => row.name);
    const seen = new Set<string>();
    const clashes = new Set(names.filter((name) => seen.has(name) || !seen.add(name)));
    const occupants = await tx
      .select({ name: this.items.name })
      .from(this.items)
      .where(
        and(
          folderId === null ? isNull(this.items.folderId) : eq(this.items.folderId, folderId),
          inArray(this.items.name, names),
        ),
      );
    for (const row of occupants) clashes.add(row.name);
    if (clashes.size > 0) {
      throw conflict('NAME_TAKEN', {
        explanation: `the target folder already holds a ${this.itemType} with each of these names`,
        names: [...clashes].sort(),
      });
    }
  }

  private async folderExists(tx: DbOrTx, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const [row] = await tx.select({ id: this.folders.id }).from(this.folders).where(eq(this.folders.id, id));
    return row !== undefined;
  }

  private async children(tx: DbOrTx, parentId: string | null): Promise<Folder[]> {
    const f = this.folders;
    return tx
      .select(this.columns())
      .from(f)
      .where(parentId === null ? isNull(f.parentId) : eq(f.parentId, parentId))
      .orderBy(asc(f.sortOrder), asc(f.name), asc(f.id));
  }

  private async nextSortOrder(tx: Tx, parentId: string | null): Promise<number> {
    const f = this.folders;
    const [row] = await tx
      .select({ value: sql<number | null>`max(${f.sortOrder})` })
      .from(f)
      .where(parentId === null ? isNull(f.parentId) : eq(f.parentId, parentId));
    return row?.value === null || row?.value === undefined ? 0 : Number(row.value) + 1;
  }

  private columns() {
    const f = this.folders;
    return {
      id: f.id,
      name: f.name,
      parentId: f.parentId,
      sortOrder: f.sortOrder,
      createdAt: f.createdAt,
      updatedAt: f.updatedAt,
    };
  }
}

export /** The condition of a `folderId` filter, or `false` when it cannot match anything. */
function folderCondition(column: AnyPgColumn, folderId: string | undefined): SQL | false | undefined {
  if (folderId === undefined) return undefined;
  if (folderId === 'root') return isNull(column);
  return isUuid(folderId) ? eq(column, folderId) : false;
}
