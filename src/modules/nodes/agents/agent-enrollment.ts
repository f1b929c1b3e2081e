import { and, eq, gt, isNotNull, ne } from 'drizzle-orm';
import type { Config } from '../../../config.js';
import type { AuditActor } from '../../../core/actor.js';
import type { AuditRecorder } from '../../../core/audit-recorder.js';
import { hashTokenSecret } from '../../../core/auth/token-secrets.js';
import type { Deps } from '../../../core/deps.js';
import { unauthorized, unprocessable } from '../../../core/errors.js';
import type { Db, DbOrTx } from '../../../db/client.js';
import { nodeAgents, nodes } from '../../../db/schema/index.js';
import {
  looksLikeAgentCredential,
  looksLikeEnrollmentToken,
  newAgentCredential,
  newEnrollmentToken,
} from './agent-secrets.js';

/** What the enrolment of a new agent node answers once: the token and the command that uses it. */
export interface Enrollment {
  token: string;
  command: string;
  expiresAt: Date;
}

/** The agent as its credential identifies it: the node and its name. */
export interface AgentIdentity {
  nodeId: string;
  name: string;
}

/** Who acts when an agent exchanges its token: the agent of the named node, from its address. */
export const agentActor = (
  node: AgentIdentity,
  clientIp: string | null,
  requestId: string | null,
): AuditActor => ({
  userId: null,
  email: `agent:${node.name}`,
  clientIp,
  requestId,
});

/**
 * The credential life cycle of agent nodes: a one-time enrolment token issued with the node, exchanged
 * once (before it expires) for the agent's long-lived credential, which works until the node is
 * revoked. Only SHA-256 hashes of both are stored; each secret is seen once, by whoever receives it.
 */
export class AgentEnrollment {
  private readonly db: Db;
  private readonly audit: AuditRecorder;
  private readonly config: Pick<Config, 'agentEnrollmentTtlMinutes' | 'publicUrl'>;

  constructor(deps: Pick<Deps, 'db' | 'audit' | 'config'>) {
    this.db = deps.db;
    this.audit = deps.audit;
    this.config = deps.config;
  }

  /** Gives a new agent node its enrolment, in the transaction that creates the node. */
  async issue(tx: DbOrTx, nodeId: string): Promise<Enrollment> {
    const token = newEnrollmentToken();
    const expiresAt = new Date(Date.now() + this.config.agentEnrollmentTtlMinutes * 60_000);
    await tx.insert(nodeAgents).values({
      nodeId,
      enrollmentTokenHash: hashTokenSecret(token),
      enrollmentExpiresAt: expiresAt,
    });
    const command =
      `npx infragate agent --gateway ${this.config.publicUrl} --token ${token} ` +
      '--root /srv/infragate --state-dir /var/lib/infragate-agent';
    return { token, command, expiresAt };
  }

  /**
   * Exchanges an enrolment token for the agent's credential. One UPDATE both checks and spends the
   * token, so of two agents racing with the same token one gets a credential and the other a 401; an
   * unknown, spent or expired token is a 401 that changes nothing.
   */
  async exchange(
    token: string,
    clientIp: string,
    requestId: string,
  ): Promise<AgentIdentity & { credential: string }> {
    if (!looksLikeEnrollmentToken(token)) throw unauthorized();
    const credential = newAgentCredential();
    return this.db.transaction(async (tx) => {
      const [spent] = await tx
        .update(nodeAgents)
        .set({
          enrollmentTokenHash: null,
          enrollmentExpiresAt: null,
          credentialHash: hashTokenSecret(credential),
          enrolledAt: new Date(),
          status: 'offline',
          updatedAt: new Date(),
        })
        .where(
          and(
            eq(nodeAgents.enrollmentTokenHash, hashTokenSecret(token)),
            gt(nodeAgents.enrollmentExpiresAt, new Date()),
            ne(nodeAgents.status, 'revoked'),
          ),
        )
        .returning({ nodeId: nodeAgents.nodeId });
      if (!spent) throw unauthorized();
      const [node] = await tx.select({ name: nodes.name }).from(nodes).where(eq(nodes.id, spent.nodeId));
      const identity = { nodeId: spent.nodeId, name: node!.name };
      await this.audit.record(tx, agentActor(identity, clientIp, requestId), {
        action: 'nodes.agent.enrolled',
        targetType: 'node',
        targetId: spent.nodeId,
        metadata: { name: identity.name },
      });
      return { ...identity, credential };
    });
  }

  /** The agent a credential belongs to, or null when it is unknown or revoked. */
  async authenticate(credential: string): Promise<AgentIdentity | null> {
    if (!looksLikeAgentCredential(credential)) return null;
    const [row] = await this.db
      .select({ nodeId: nodeAgents.nodeId, name: nodes.name })
      .from(nodeAgents)
      .innerJoin(nodes, eq(nodes.id, nodeAgents.nodeId))
      .where(
        and(eq(nodeAgents.credentialHash, hashTokenSecret(credential)), isNotNull(nodeAgents.credentialHash)),
      );
    return row ?? null;
  }

  /**
   * Revokes an agent node: its credential (and an unspent enrolment token) stop working at once. The
   * caller closes the tunnel once this committed. Revoking twice is no change and no second event.
   */
  async revoke(actor: AuditActor, nodeId: string, name: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [revoked] = await tx
        .update(nodeAgents)
        .set({
          status: 'revoked',
          credentialHash: null,
          enrollmentTokenHash: null,
          enrollmentExpiresAt: null,
          connectionId: null,
          revokedAt: new Date(),
          updatedAt: new Date(),
        })
        .where(and(eq(nodeAgents.nodeId, nodeId), ne(nodeAgents.status, 'revoked')))
        .returning({ nodeId: nodeAgents.nodeId });
      if (!revoked) return;
      await this.audit.record(tx, actor, {
        action: 'nodes.agent.revoked',
        targetType: 'node',
        targetId: nodeId,
        metadata: { name },
      });
    });
  }
}

/** The 422 of an agent-only operation on a directory node. */
export const notAnAgentNode = (nodeId: string) =>
  unprocessable(
    'NODE_NOT_AGENT',
    'this node is a directory on the gateway host; only agent nodes have an agent',
    {
      nodeId,
    },
  );
