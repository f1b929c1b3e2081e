import { and, count, eq, type SQL } from 'drizzle-orm';
import type { Actor, AuditActor } from '../../core/actor.js';
import { visibleResources } from '../../core/auth/visible-resources.js';
import { conflictOnDuplicate } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { invalidField, notFound, unprocessable } from '../../core/errors.js';
import { trimmedName } from '../../core/names.js';
import { fetchPage } from '../../core/pagination.js';
import { containsText } from '../../core/text-filters.js';
import {
  droppedSecretsNote,
  movedDestinations,
  requireAreaScopeToMove,
  secretsToDrop,
  withDroppedSecrets,
} from '../../core/trust-boundary.js';
import { inferenceConnections } from '../../db/schema/index.js';
import { type CatalogEntry, isHttpUrl } from '../../inference-catalog.js';
import { type ConnectionRow, connectionView, findConnection, insertConnection } from './connection-rows.js';
import { SEALED_IN } from './connection-secrets.js';
import type { ProviderCatalog } from './provider-catalog.js';
import type { Connection, ConnectionChange, ConnectionListQuery, NewConnection } from './schemas.js';

/**
 * Connections to catalog providers that authenticate with an API key or nothing (local servers); OAuth
 * connections are created by completing a sign-in session (oauth-sessions.ts).
 */
export class ConnectionService {
  constructor(private readonly deps: Pick<Deps, 'db' | 'audit' | 'secrets'> & { catalog: ProviderCatalog }) {}

  private view(row: ConnectionRow): Connection {
    return connectionView(row, this.deps.catalog);
  }

  /** The connections the actor may see (all with an area-wide scope). */
  async list(actor: Actor, filter: ConnectionListQuery) {
    const { db } = this.deps;
    const conditions: SQL[] = [];
    const visible = visibleResources(inferenceConnections.id, actor, 'inference:view');
    if (visible) conditions.push(visible);
    if (filter.providerId) conditions.push(eq(inferenceConnections.providerId, filter.providerId));
    if (filter.authType) conditions.push(eq(inferenceConnections.authType, filter.authType));
    if (filter.q) conditions.push(containsText(inferenceConnections.name, filter.q));
    const where = and(...conditions);
    return fetchPage(
      filter,
      ({ limit, offset }) =>
        db
          .select()
          .from(inferenceConnections)
          .where(where)
          .orderBy(inferenceConnections.name)
          .limit(limit)
          .offset(offset),
      db.select({ value: count() }).from(inferenceConnections).where(where),
      (row) => this.view(row),
    );
  }

  async get(id: string): Promise<Connection> {
    return this.view(await findConnection(this.deps.db, id));
  }

  async create(actor: AuditActor, input: NewConnection): Promise<Connection> {
    const entry = this.deps.catalog.require(input.providerId);
    const name = trimmedName(input.name);
    if (!entry.authTypes.includes(input.authType))
      throw invalidField(['authType'], `provider ${entry.id} supports: ${entry.authTypes.join(', ')}`);
    if (input.authType === 'oauth')
      throw unprocessable(
        'OAUTH_SESSION_REQUIRED',
        'an OAuth connection is created by signing in: POST /api/inference/providers/oauth/start, then complete the session',
      );
    if (input.authType === 'api_key' && !input.apiKey)
      throw invalidField(['apiKey'], 'is required for authType api_key');
    checkBaseUrl(entry, input.baseUrl);
    return this.deps.db.transaction(async (tx) => {
      const row = await insertConnection(tx, {
        providerId: entry.id,
        name,
        authType: input.authType,
        baseUrl: input.baseUrl ?? null,
        apiKeySealed: input.apiKey ? this.deps.secrets.seal(input.apiKey, SEALED_IN.apiKey) : null,
        createdBy: actor.userId,
      });
      await this.deps.audit.record(tx, actor, {
        action: 'inference.connection.created',
        targetType: 'inference_connection',
        targetId: row.id,
        metadata: {
          providerId: entry.id,
          name,
          authType: input.authType,
          baseUrl: input.baseUrl ?? null,
          withApiKey: Boolean(input.apiKey),
        },
      });
      return this.view(row);
    });
  }

  /**
   * Renames a connection, replaces its API key or its base URL. A base URL that sends elsewhere
   * (the catalog's counts where none is set) needs the area-wide inference:manage, and drops every
   * stored credential the change does not send again: the API key, and a sign-in's tokens (the
   * access token would go to the new URL, the refresh token would mint one for it).
   */
  async update(actor: AuditActor, id: string, change: ConnectionChange) {
    const current = await findConnection(this.deps.db, id);
    const values: Partial<typeof inferenceConnections.$inferInsert> = {};
    const metadata: Record<string, unknown> = {};
    if (change.name !== undefined) {
      values.name = trimmedName(change.name);
      metadata.name = values.name;
    }
    if (change.apiKey !== undefined) {
      if (current.authType === 'oauth')
        throw invalidField(['apiKey'], 'an OAuth connection holds tokens, not an API key');
      if (change.apiKey === null && current.authType === 'api_key')
        throw invalidField(['apiKey'], 'an api_key connection needs its API key');
      values.apiKeySealed =
        change.apiKey === null ? null : this.deps.secrets.seal(change.apiKey, SEALED_IN.apiKey);
      metadata.apiKey = change.apiKey === null ? 'removed' : 'replaced';
    }
    if (change.baseUrl !== undefined) {
      const entry = this.deps.catalog.find(current.providerId);
      if (!entry)
        throw invalidField(['baseUrl'], `provider ${current.providerId} is no longer in the catalog`);
      checkBaseUrl(entry, change.baseUrl);
      values.baseUrl = change.baseUrl;
      metadata.baseUrl = change.baseUrl;
    }
    const dropped = secretsToDrop(this.moves(actor, current, change), {
      apiKey: { stored: current.apiKeySealed !== null, supplied: change.apiKey !== undefined },
      accessToken: { stored: current.accessTokenSealed !== null, supplied: false },
      refreshToken: { stored: current.refreshTokenSealed !== null, supplied: false },
    });
    for (const name of dropped) Object.assign(values, DROPPED_COLUMNS[name as keyof typeof DROPPED_COLUMNS]);
    Object.assign(metadata, droppedSecretsNote(dropped));
    const connection = await this.deps.db.transaction(async (tx) => {
      const [row] = await conflictOnDuplicate(
        tx
          .update(inferenceConnections)
          .set({ ...values, updatedAt: new Date() })
          .where(eq(inferenceConnections.id, id))
          .returning(),
        'CONNECTION_NAME_TAKEN',
        { name: values.name },
      );
      if (!row) throw notFound({ connectionId: id });
      await this.deps.audit.record(tx, actor, {
        action: 'inference.connection.updated',
        targetType: 'inference_connection',
        targetId: id,
        metadata,
      });
      return this.view(row);
    });
    return withDroppedSecrets(connection, dropped);
  }

  /**
   * Whether the change sends the connection's requests elsewhere (the catalog's URL where none is
   * set); such a move needs the area-wide inference:manage.
   */
  private moves(actor: AuditActor, current: ConnectionRow, change: ConnectionChange): boolean {
    if (change.baseUrl === undefined) return false;
    const catalogUrl = this.deps.catalog.find(current.providerId)?.baseUrl ?? null;
    const moved = movedDestinations(
      { baseUrl: current.baseUrl ?? catalogUrl },
      { baseUrl: change.baseUrl ?? catalogUrl },
      ['baseUrl'],
    );
    requireAreaScopeToMove(actor, 'inference:manage', moved);
    return moved.length > 0;
  }

  async remove(actor: AuditActor, id: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .delete(inferenceConnections)
        .where(eq(inferenceConnections.id, id))
        .returning({ name: inferenceConnections.name, providerId: inferenceConnections.providerId });
      if (!row) throw notFound({ connectionId: id });
      await this.deps.audit.record(tx, actor, {
        action: 'inference.connection.deleted',
        targetType: 'inference_connection',
        targetId: id,
        metadata: { name: row.name, providerId: row.providerId },
      });
    });
  }
}

/** The columns each dropped credential empties (with what was known about it); a sign-in fills them again. */
const DROPPED_COLUMNS = {
  apiKey: { apiKeySealed: null },
  accessToken: { accessTokenSealed: null, accessTokenExpiresAt: null, tokenScope: null },
  refreshToken: { refreshTokenSealed: null },
} satisfies Record<string, Partial<typeof inferenceConnections.$inferInsert>>;

/** A base URL of the operator's own is allowed only where the catalog entry says so. */
function checkBaseUrl(entry: CatalogEntry, baseUrl: string | null | undefined): void {
  if (baseUrl === undefined || baseUrl === null) return;
  if (!entry.allowBaseUrlOverride)
    throw invalidField(['baseUrl'], `provider ${entry.id} does not allow a base URL override`);
  if (!isHttpUrl(baseUrl)) throw invalidField(['baseUrl'], 'must be an http or https URL');
}
