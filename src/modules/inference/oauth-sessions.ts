import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, lt, type SQL } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { AppError, conflict, notFound, unprocessable } from '../../core/errors.js';
import { isUuid } from '../../core/ids.js';
import { trimmedName } from '../../core/names.js';
import { fetchPage } from '../../core/pagination.js';
import type { DbOrTx } from '../../db/client.js';
import { inferenceConnections, inferenceOauthSessions } from '../../db/schema/index.js';
import { insertConnection } from './connection-rows.js';
import { tokenColumns } from './connection-secrets.js';
import type { TokenSet } from './oauth-client.js';
import { type FlowStep, OAuthFlows } from './oauth-flows.js';
import type { ProviderCatalog } from './provider-catalog.js';
import type { Session, SessionListQuery, SessionStart, SessionStatus } from './schemas.js';

type SessionRow = typeof inferenceOauthSessions.$inferSelect;
type SessionValues = Partial<typeof inferenceOauthSessions.$inferInsert>;

/** Rolls back a session change whose conditional update found the session already finished. */
class SessionNoLongerPending extends Error {}

function sessionRecord(row: SessionRow): Session {
  return {
    id: row.id,
    providerId: row.providerId,
    status: row.status,
    authorizationUrl: row.authorizationUrl,
    completionMode: row.completionMode,
    userCode: row.userCode,
    pollIntervalSeconds: row.pollIntervalSeconds,
    connectionId: row.connectionId,
    errorCode: row.errorCode,
    errorMessage: row.errorMessage,
    expiresAt: row.expiresAt,
  };
}

/**
 * OAuth sign-in sessions: `pending` until completed (a new connection holds the tokens), refused
 * (`error`), `expired` or `cancelled`. A session leaves `pending` once: every transition is an update
 * conditional on `pending`, in one transaction with its audit event, so two gateway processes finishing
 * the same session record one outcome.
 */
export class OAuthSessionService {
  private readonly flows: OAuthFlows;
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(
    private readonly deps: Pick<Deps, 'db' | 'audit' | 'secrets' | 'egress'> & { catalog: ProviderCatalog },
  ) {
    this.flows = new OAuthFlows(deps);
  }

  async start(actor: AuditActor, input: SessionStart): Promise<Session> {
    const entry = this.deps.catalog.require(input.providerId);
    if (!entry.oauth || !entry.oauthFlow)
      throw unprocessable('OAUTH_NOT_SUPPORTED', `provider ${entry.id} does not sign in with OAuth`, {
        authTypes: entry.authTypes,
      });
    const id = randomUUID();
    const connectionName =
      input.name !== undefined ? trimmedName(input.name) : `${entry.label} (${id.slice(0, 8)})`;
    const [taken] = await this.deps.db
      .select({ id: inferenceConnections.id })
      .from(inferenceConnections)
      .where(eq(inferenceConnections.name, connectionName));
    if (taken) throw conflict('CONNECTION_NAME_TAKEN', { name: connectionName });
    const flow = await this.flows.begin(entry);
    return this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(inferenceOauthSessions)
        .values({
          id,
          providerId: entry.id,
          status: 'pending',
          connectionName,
          createdBy: actor.userId,
          ...flow,
        })
        .returning();
      await this.deps.audit.record(tx, actor, {
        action: 'inference.oauth_session.started',
        targetType: 'inference_oauth_session',
        targetId: id,
        metadata: { providerId: entry.id, flow: entry.oauthFlow, connectionName },
      });
      return sessionRecord(row!);
    });
  }

  async get(actor: AuditActor, id: string): Promise<Session> {
    const row = await this.row(id);
    if (row.status !== 'pending') return sessionRecord(row);
    return this.withLock(id, async () =>
      sessionRecord(await this.expireIfOverdue(actor, await this.row(id))),
    );
  }

  async list(actor: AuditActor, filter: SessionListQuery) {
    await this.expireOverdue(actor);
    const { db } = this.deps;
    const conditions: SQL[] = [];
    if (filter.providerId) conditions.push(eq(inferenceOauthSessions.providerId, filter.providerId));
    if (filter.status) conditions.push(eq(inferenceOauthSessions.status, filter.status));
    const where = and(...conditions);
    return fetchPage(
      filter,
      ({ limit, offset }) =>
        db
          .select()
          .from(inferenceOauthSessions)
          .where(where)
          .orderBy(desc(inferenceOauthSessions.createdAt), desc(inferenceOauthSessions.id))
          .limit(limit)
          .offset(offset),
      db.select({ value: count() }).from(inferenceOauthSessions).where(where),
      sessionRecord,
    );
  }

  /** Marks pending sessions past expiresAt expired; each is re-read under its lock, as another gateway may have finished it. */
  async expireOverdue(actor: AuditActor): Promise<void> {
    const overdue = await this.deps.db
      .select({ id: inferenceOauthSessions.id })
      .from(inferenceOauthSessions)
      .where(
        and(eq(inferenceOauthSessions.status, 'pending'), lt(inferenceOauthSessions.expiresAt, new Date())),
      );
    for (const { id } of overdue)
      await this.withLock(id, async () => this.expireIfOverdue(actor, await this.row(id)));
  }

  async cancel(actor: AuditActor, id: string): Promise<Session> {
    return this.withLock(id, async () => {
      const row = await this.expireIfOverdue(actor, await this.row(id));
      if (row.status !== 'pending') return sessionRecord(row);
      return sessionRecord(await this.finish(actor, row, 'cancelled', {}));
    });
  }

  /**
   * `POST /api/inference/providers/oauth/{id}/complete`: completes a redirect session with its pasted
   * callback, or polls a device session once.
   */
  async complete(actor: AuditActor, id: string, callback: string | undefined): Promise<Session> {
    return this.withLock(id, async () => {
      const row = await this.expireIfOverdue(actor, await this.row(id));
      if (row.status !== 'pending') return sessionRecord(row);
      const entry = this.deps.catalog.find(row.providerId);
      if (!entry?.oauth)
        return sessionRecord(
          await this.finish(actor, row, 'error', {
            errorCode: 'provider_not_in_catalog',
            errorMessage: `provider ${row.providerId} is no longer in the catalog`,
          }),
        );
      return sessionRecord(await this.advance(actor, row, await this.flows.next(row, entry, callback)));
    });
  }

  private async advance(actor: AuditActor, row: SessionRow, step: FlowStep): Promise<SessionRow> {
    switch (step.outcome) {
      case 'tokens':
        return this.completeWithTokens(actor, row, step.tokens);
      case 'waiting': {
        const [updated] = await this.deps.db
          .update(inferenceOauthSessions)
          .set({
            lastPolledAt: new Date(),
            pollIntervalSeconds: step.pollIntervalSeconds,
            updatedAt: new Date(),
          })
          .where(and(eq(inferenceOauthSessions.id, row.id), eq(inferenceOauthSessions.status, 'pending')))
          .returning();
        return updated ?? this.row(row.id);
      }
      case 'ended':
        return this.finish(actor, row, step.status, {
          errorCode: step.errorCode,
          errorMessage: step.errorMessage,
        });
    }
  }

  /** Completes the session with a new OAuth connection holding the tokens, in the same transaction. */
  private async completeWithTokens(
    actor: AuditActor,
    row: SessionRow,
    tokens: TokenSet,
  ): Promise<SessionRow> {
    try {
      return await this.finish(
        actor,
        row,
        'complete',
        { errorCode: null, errorMessage: null },
        async (tx) => {
          const connection = await insertConnection(tx, {
            providerId: row.providerId,
            name: row.connectionName,
            authType: 'oauth',
            ...tokenColumns(this.deps.secrets, tokens),
            createdBy: row.createdBy,
          });
          await this.deps.audit.record(tx, actor, {
            action: 'inference.connection.created',
            targetType: 'inference_connection',
            targetId: connection.id,
            metadata: {
              providerId: row.providerId,
              name: row.connectionName,
              authType: 'oauth',
              sessionId: row.id,
              withRefreshToken: Boolean(tokens.refreshToken),
            },
          });
          return { connectionId: connection.id };
        },
      );
    } catch (error) {
      if (error instanceof AppError && error.code === 'CONFLICT')
        return this.finish(actor, row, 'error', {
          errorCode: 'connection_name_taken',
          errorMessage: `a connection named ${row.connectionName} was created meanwhile; start a new session with another name`,
        });
      throw error;
    }
  }

  private async expireIfOverdue(actor: AuditActor, row: SessionRow): Promise<SessionRow> {
    if (row.status !== 'pending' || row.expiresAt.getTime() > Date.now()) return row;
    return this.finish(actor, row, 'expired', {
      errorCode: 'expired',
      errorMessage: 'the session passed its expiresAt before it was completed',
    });
  }

  /**
   * Moves a pending session to a final state (in a transaction with its audit event); when another
   * process got there first, answers the session as it now is.
   */
  private async finish(
    actor: AuditActor,
    row: SessionRow,
    status: Exclude<SessionStatus, 'pending'>,
    values: SessionValues,
    before?: (tx: DbOrTx) => Promise<SessionValues>,
  ): Promise<SessionRow> {
    const changed = await this.deps.db
      .transaction(async (tx) => {
        const extra = before ? await before(tx) : {};
        const [updated] = await tx
          .update(inferenceOauthSessions)
          .set({
            ...values,
            ...extra,
            status,
            stateSealed: null,
            codeVerifierSealed: null,
            deviceCodeSealed: null,
            updatedAt: new Date(),
          })
          .where(and(eq(inferenceOauthSessions.id, row.id), eq(inferenceOauthSessions.status, 'pending')))
          .returning();
        // Another gateway process finished the session first: undo what `before` wrote.
        if (!updated) throw new SessionNoLongerPending();
        await this.deps.audit.record(tx, actor, {
          action: `inference.oauth_session.${status === 'complete' ? 'completed' : status}`,
          targetType: 'inference_oauth_session',
          targetId: row.id,
          outcome: status === 'complete' || status === 'cancelled' ? 'success' : 'failure',
          metadata: {
            providerId: row.providerId,
            connectionId: updated.connectionId,
            errorCode: updated.errorCode,
          },
        });
        return updated;
      })
      .catch((error: unknown) => {
        if (error instanceof SessionNoLongerPending) return undefined;
        throw error;
      });
    return changed ?? this.row(row.id);
  }

  /** One completion or cancellation at a time per session in this process; updates are also conditional on `pending`. */
  private async withLock<T>(id: string, work: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(id) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(work);
    const tail = run.catch(() => undefined);
    this.locks.set(id, tail);
    try {
      return await run;
    } finally {
      if (this.locks.get(id) === tail) this.locks.delete(id);
    }
  }

  private async row(id: string): Promise<SessionRow> {
    if (!isUuid(id)) throw notFound({ sessionId: id });
    const [row] = await this.deps.db
      .select()
      .from(inferenceOauthSessions)
      .where(eq(inferenceOauthSessions.id, id));
    if (!row) throw notFound({ sessionId: id });
    return row;
  }
}
