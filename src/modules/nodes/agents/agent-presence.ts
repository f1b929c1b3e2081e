import { and, eq, inArray, lt } from 'drizzle-orm';
import type { Deps } from '../../../core/deps.js';
import type { Notifications } from '../../../core/notifications.js';
import type { Db, DbOrTx } from '../../../db/client.js';
import { nodeAgents, nodes } from '../../../db/schema/index.js';
import type { AgentIdentity } from './agent-enrollment.js';
import type { Hello } from './tunnel-frames.js';

/**
 * Whether each agent node is online: written when a tunnel opens and closes, refreshed by its
 * heartbeat, and each change reported as the `nodes.node.offline` condition (online is its recovery).
 * A close only counts for the tunnel that is current (`connectionId`), so a replaced tunnel ending
 * late, or one of a revoked node, changes nothing.
 */
export class AgentPresence {
  private readonly db: Db;
  private readonly notifications: Notifications;

  constructor(deps: Pick<Deps, 'db' | 'notifications'>) {
    this.db = deps.db;
    this.notifications = deps.notifications;
  }

  /**
   * The tunnel `connectionId` is the agent's now; false when the node was revoked meanwhile. A node
   * still marked online had its previous tunnel end unseen (the instance holding it died, or this is a
   * replacement): the new tunnel takes over, and only a node that was offline reports coming online.
   */
  async online(agent: AgentIdentity, connectionId: string, hello: Hello): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [before] = await tx
        .select({ status: nodeAgents.status })
        .from(nodeAgents)
        .where(eq(nodeAgents.nodeId, agent.nodeId))
        .for('update');
      if (before?.status !== 'online' && before?.status !== 'offline') return false;
      await tx
        .update(nodeAgents)
        .set({
          status: 'online',
          connectionId,
          lastSeenAt: new Date(),
          agentVersion: hello.version,
          root: hello.root,
          facts: hello.facts,
          capabilities: hello.capabilities,
          updatedAt: new Date(),
        })
        .where(eq(nodeAgents.nodeId, agent.nodeId));
      if (before.status === 'offline') await this.report(tx, agent, 'online');
      return true;
    });
  }

  /** The heartbeat of the current tunnel answered. */
  async seen(nodeId: string, connectionId: string): Promise<void> {
    await this.db
      .update(nodeAgents)
      .set({ lastSeenAt: new Date() })
      .where(and(eq(nodeAgents.nodeId, nodeId), eq(nodeAgents.connectionId, connectionId)));
  }

  /** The tunnel `connectionId` ended: its node is offline, if that tunnel was still the current one. */
  async offline(agent: AgentIdentity, connectionId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(nodeAgents)
        .set({ status: 'offline', connectionId: null, updatedAt: new Date() })
        .where(
          and(
            eq(nodeAgents.nodeId, agent.nodeId),
            eq(nodeAgents.connectionId, connectionId),
            eq(nodeAgents.status, 'online'),
          ),
        )
        .returning({ nodeId: nodeAgents.nodeId });
      if (row) await this.report(tx, agent, 'offline');
    });
  }

  /**
   * Marks offline the nodes whose tunnel has not been heard of since `before`: their gateway
   * instance went away without closing them (a crash, a kill). Answers how many it marked.
   */
  async sweepSilent(before: Date): Promise<number> {
    return this.db.transaction(async (tx) => {
      const silent = await tx
        .update(nodeAgents)
        .set({ status: 'offline', connectionId: null, updatedAt: new Date() })
        .where(and(eq(nodeAgents.status, 'online'), lt(nodeAgents.lastSeenAt, before)))
        .returning({ nodeId: nodeAgents.nodeId });
      if (silent.length === 0) return 0;
      const named = await tx
        .select({ nodeId: nodes.id, name: nodes.name })
        .from(nodes)
        .where(
          inArray(
            nodes.id,
            silent.map((row) => row.nodeId),
          ),
        );
      for (const agent of named) await this.report(tx, agent, 'offline');
      return silent.length;
    });
  }

  private async report(tx: DbOrTx, agent: AgentIdentity, state: 'online' | 'offline'): Promise<void> {
    await this.notifications.emit(tx, {
      kind: 'nodes.node.offline',
      resource: { type: 'node', id: agent.nodeId, name: agent.name },
      state,
      labels: { nodeId: agent.nodeId },
    });
  }
}
