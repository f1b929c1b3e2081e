import { and, count, eq, type SQL } from 'drizzle-orm';
import type { Actor, AuditActor } from '../../core/actor.js';
import type { AuditRecorder } from '../../core/audit-recorder.js';
import { visibleResources } from '../../core/auth/visible-resources.js';
import { conflictOnDuplicate } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { conflict, notFound } from '../../core/errors.js';
import { trimmedName } from '../../core/names.js';
import { fetchPage } from '../../core/pagination.js';
import { containsText } from '../../core/text-filters.js';
import { changedFields, requireAreaScopeToMove } from '../../core/trust-boundary.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { nodes, nodeUploads } from '../../db/schema/index.js';
import { absoluteRootPath, removeTempFile } from './node-fs.js';
import type { NodeRoots } from './node-roots.js';
import type { NewStorageNode, StorageNode, StorageNodeChanges, StorageNodeListQuery } from './schemas.js';

const nodeColumns = {
  id: nodes.id,
  name: nodes.name,
  rootPath: nodes.rootPath,
  createdAt: nodes.createdAt,
  updatedAt: nodes.updatedAt,
};

/** Storage nodes: named storage roots on the gateway's host that file uploads write into. */
export class StorageNodeService {
  private readonly db: Db;
  private readonly audit: AuditRecorder;
  private readonly roots: NodeRoots;

  constructor(deps: Pick<Deps, 'db' | 'audit'> & { roots: NodeRoots }) {
    this.db = deps.db;
    this.audit = deps.audit;
    this.roots = deps.roots;
  }

  /** The storage nodes the actor may see (all with an area-wide scope). */
  async list(actor: Actor, filter: StorageNodeListQuery) {
    const conditions: SQL[] = [];
    const visible = visibleResources(nodes.id, actor, 'nodes:view');
    if (visible) conditions.push(visible);
    if (filter.q) conditions.push(containsText(nodes.name, filter.q));
    if (filter.name) conditions.push(eq(nodes.name, filter.name));
    const where = and(...conditions);
    return fetchPage(
      filter,
      ({ limit, offset }) =>
        this.db.select(nodeColumns).from(nodes).where(where).orderBy(nodes.name).limit(limit).offset(offset),
      this.db.select({ value: count() }).from(nodes).where(where),
    );
  }

  async get(id: string, db: DbOrTx = this.db): Promise<StorageNode> {
    const [row] = await db.select(nodeColumns).from(nodes).where(eq(nodes.id, id));
    if (!row) throw notFound({ nodeId: id });
    return row;
  }

  async create(actor: AuditActor, input: NewStorageNode): Promise<StorageNode> {
    const name = trimmedName(input.name);
    const rootPath = await this.roots.registered(input.rootPath);
    return this.db.transaction(async (tx) => {
      const [row] = (await conflictOnDuplicate(
        tx.insert(nodes).values({ name, rootPath }).returning(nodeColumns),
        'NODE_NAME_TAKEN',
        { name },
      )) as [StorageNode];
      await this.audit.record(tx, actor, {
        action: 'nodes.node.created',
        targetType: 'node',
        targetId: row.id,
        metadata: { name, rootPath },
      });
      return row;
    });
  }

  /**
   * Renames a node or moves its root. Moving the root is the node's boundary: it needs `nodes:manage`
   * on the whole area, decided before the new directory is looked at (so a caller who may not move it
   * learns nothing about the host's directories). A root given as it is stored is no move, and is not
   * written: a move by someone else meanwhile is never undone by it.
   */
  async update(actor: AuditActor, id: string, input: StorageNodeChanges): Promise<StorageNode> {
    const changes: { name?: string; rootPath?: string } = {};
    if (input.name !== undefined) changes.name = trimmedName(input.name);
    const requested = input.rootPath === undefined ? undefined : absoluteRootPath(input.rootPath);
    const moved = changedFields(await this.get(id), { rootPath: requested }, ['rootPath']);
    requireAreaScopeToMove(actor, 'nodes:manage', moved);
    if (moved.length > 0) changes.rootPath = await this.roots.registered(requested!);
    return this.db.transaction(async (tx) => {
      const current = await this.get(id, tx);
      if (changes.rootPath !== undefined && changes.rootPath !== current.rootPath) {
        const [open] = await tx
          .select({ value: count() })
          .from(nodeUploads)
          .where(and(eq(nodeUploads.nodeId, id), eq(nodeUploads.status, 'open')));
        if ((open?.value ?? 0) > 0)
          throw conflict('NODE_HAS_OPEN_UPLOADS', {
            openUploads: open!.value,
            explanation:
              'finish or abort the open uploads before moving the root (their data lives under it)',
          });
      }
      const [row] = (await conflictOnDuplicate(
        tx
          .update(nodes)
          .set({ ...changes, updatedAt: new Date() })
          .where(eq(nodes.id, id))
          .returning(nodeColumns),
        'NODE_NAME_TAKEN',
        { name: changes.name },
      )) as [StorageNode];
      await this.audit.record(tx, actor, {
        action: 'nodes.node.updated',
        targetType: 'node',
        targetId: id,
        metadata: { before: { name: current.name, rootPath: current.rootPath }, changes },
      });
      return row;
    });
  }

  /** Deletes the node and its upload sessions (open ones lose their temp data); files in the root stay. */
  async remove(actor: AuditActor, id: string): Promise<void> {
    const { node, openIds } = await this.db.transaction(async (tx) => {
      const node = await this.get(id, tx);
      const open = await tx
        .select({ id: nodeUploads.id })
        .from(nodeUploads)
        .where(and(eq(nodeUploads.nodeId, id), eq(nodeUploads.status, 'open')));
      await tx.delete(nodes).where(eq(nodes.id, id));
      await this.audit.record(tx, actor, {
        action: 'nodes.node.deleted',
        targetType: 'node',
        targetId: id,
        metadata: { name: node.name, rootPath: node.rootPath, abortedUploads: open.length },
      });
      return { node, openIds: open.map((row) => row.id) };
    });
    if (openIds.length === 0) return;
    const root = await this.roots.real(node.rootPath).catch(() => undefined);
    if (root) for (const uploadId of openIds) await removeTempFile(root, uploadId);
  }
}
