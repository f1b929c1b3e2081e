import { and, count, eq, type SQL, sql } from 'drizzle-orm';
import type { Actor, AuditActor } from '../../core/actor.js';
import type { AuditRecorder } from '../../core/audit-recorder.js';
import { visibleResources } from '../../core/auth/visible-resources.js';
import { conflictOnDuplicate } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { conflict, invalidField, notFound } from '../../core/errors.js';
import { trimmedName } from '../../core/names.js';
import { fetchPage } from '../../core/pagination.js';
import { containsText } from '../../core/text-filters.js';
import { changedFields, requireAreaScopeToMove } from '../../core/trust-boundary.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { nodeAgents, nodes, nodeUploads } from '../../db/schema/index.js';
import { type AgentEnrollment, notAnAgentNode } from './agents/agent-enrollment.js';
import type { TunnelHub } from './agents/tunnel-hub.js';
import { absoluteRootPath, removeTempFile } from './node-fs.js';
import type { NodeRoots } from './node-roots.js';
import type {
  CreatedStorageNode,
  NewStorageNode,
  StorageNode,
  StorageNodeChanges,
  StorageNodeListQuery,
} from './schemas.js';

/** A node with what its agent last reported (nulls for a directory node); an agent's root is its --root. */
const nodeWithAgentColumns = {
  id: nodes.id,
  name: nodes.name,
  kind: nodes.kind,
  createdAt: nodes.createdAt,
  updatedAt: nodes.updatedAt,
  rootPath: sql<string | null>`coalesce(${nodes.rootPath}, ${nodeAgents.root})`,
  status: nodeAgents.status,
  lastSeenAt: nodeAgents.lastSeenAt,
  agentVersion: nodeAgents.agentVersion,
  facts: nodeAgents.facts,
  capabilities: nodeAgents.capabilities,
};

const withAgents = (db: DbOrTx) =>
  db.select(nodeWithAgentColumns).from(nodes).leftJoin(nodeAgents, eq(nodeAgents.nodeId, nodes.id));

/**
 * Storage nodes: named storage roots that file uploads write into, on the gateway's host (directory
 * nodes) or on an agent's host (agent nodes, enrolled at creation and revocable).
 */
export class StorageNodeService {
  private readonly db: Db;
  private readonly audit: AuditRecorder;
  private readonly roots: NodeRoots;
  private readonly enrollment: AgentEnrollment;
  private readonly hub: TunnelHub;

  constructor(
    deps: Pick<Deps, 'db' | 'audit'> & { roots: NodeRoots; enrollment: AgentEnrollment; hub: TunnelHub },
  ) {
    this.db = deps.db;
    this.audit = deps.audit;
    this.roots = deps.roots;
    this.enrollment = deps.enrollment;
    this.hub = deps.hub;
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
      ({ limit, offset }) => withAgents(this.db).where(where).orderBy(nodes.name).limit(limit).offset(offset),
      this.db.select({ value: count() }).from(nodes).where(where),
    );
  }

  async get(id: string, db: DbOrTx = this.db): Promise<StorageNode> {
    const [row] = await withAgents(db).where(eq(nodes.id, id));
    if (!row) throw notFound({ nodeId: id });
    return row;
  }

  /**
   * Registers a node. A directory node needs its root (an allowed directory here); an agent node
   * has none here (its agent's --root is the root) and is answered with its one-time enrolment.
   */
  async create(actor: AuditActor, input: NewStorageNode): Promise<CreatedStorageNode> {
    const name = trimmedName(input.name);
    const kind = input.kind ?? 'directory';
    if (kind === 'agent' && input.rootPath !== undefined)
      throw invalidField(
        ['rootPath'],
        'an agent node has no root on the gateway host: its agent’s --root is its root',
      );
    if (kind === 'directory' && input.rootPath === undefined)
      throw invalidField(
        ['rootPath'],
        'a directory node needs its root (an absolute directory on the gateway host)',
      );
    const rootPath = kind === 'directory' ? await this.roots.registered(input.rootPath!) : null;
    return this.db.transaction(async (tx) => {
      const [row] = (await conflictOnDuplicate(
        tx.insert(nodes).values({ name, kind, rootPath }).returning({ id: nodes.id }),
        'NODE_NAME_TAKEN',
        { name },
      )) as [{ id: string }];
      const enrollment = kind === 'agent' ? await this.enrollment.issue(tx, row.id) : undefined;
      await this.audit.record(tx, actor, {
        action: 'nodes.node.created',
        targetType: 'node',
        targetId: row.id,
        metadata: {
          name,
          kind,
          rootPath,
          ...(enrollment ? { enrollmentExpiresAt: enrollment.expiresAt } : {}),
        },
      });
      return { ...(await this.get(row.id, tx)), ...(enrollment ? { enrollment } : {}) };
    });
  }

  /** Revokes an agent node's credential and closes its tunnel; 422 for a directory node. */
  async revoke(actor: AuditActor, id: string): Promise<StorageNode> {
    const node = await this.get(id);
    if (node.kind !== 'agent') throw notAnAgentNode(id);
    await this.enrollment.revoke(actor, id, node.name);
    await this.hub.revoked(id);
    return this.get(id);
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
    const stored = await this.get(id);
    if (stored.kind === 'agent' && requested !== undefined)
      throw invalidField(['rootPath'], 'an agent node’s root is its agent’s --root, set on its host');
    const moved = changedFields(stored, { rootPath: requested }, ['rootPath']);
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
          .returning({ id: nodes.id }),
        'NODE_NAME_TAKEN',
        { name: changes.name },
      )) as [{ id: string }];
      await this.audit.record(tx, actor, {
        action: 'nodes.node.updated',
        targetType: 'node',
        targetId: id,
        metadata: { before: { name: current.name, rootPath: current.rootPath }, changes },
      });
      return this.get(row.id, tx);
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
    // The credential went with the node; its tunnel goes too.
    if (node.kind === 'agent') await this.hub.revoked(id);
    if (openIds.length === 0) return;
    const root =
      node.kind === 'directory' ? await this.roots.real(node.rootPath).catch(() => undefined) : undefined;
    if (root) for (const uploadId of openIds) await removeTempFile(root, uploadId);
  }
}
