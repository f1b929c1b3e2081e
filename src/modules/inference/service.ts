import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, isNotNull, lt, type SQL } from 'drizzle-orm';
import { type AuditActor, systemActor } from '../../core/actor.js';
import { conflictOnDuplicate } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { findEgressDenial } from '../../core/egress-guard.js';
import { AppError, conflict, invalidField, notFound, unprocessable } from '../../core/errors.js';
import { isUuid } from '../../core/ids.js';
import { trimmedName } from '../../core/names.js';
import { fetchPage, type PageRequest } from '../../core/pagination.js';
import { containsText } from '../../core/text-filters.js';
import type { DbOrTx } from '../../db/client.js';
import { inferenceConnections, inferenceOauthSessions } from '../../db/schema/index.js';
import { type AuthType, type CatalogEntry, isHttpUrl } from './catalog.js';
import { joinUrl, listModels, type ModelInfo } from './models-client.js';
import {
  OAuthServerError,
  ProviderOAuthClient,
  randomCodeVerifier,
  randomState,
  type TokenSet,
} from './oauth-client.js';

type ConnectionRow = typeof inferenceConnections.$inferSelect;
type SessionRow = typeof inferenceOauthSessions.$inferSelect;
export type SessionStatus = SessionRow['status'];

/** A catalog entry as endpoint 12 answers it: the contract's fields and nothing else. */
export type PublicCatalogEntry = Omit<CatalogEntry, 'apiKeyHeader' | 'extraHeaders' | 'oauth'>;

export interface ConnectionView {
  id: string;
  providerId: string;
  providerLabel: string | null;
  name: string;
  authType: AuthType;
  baseUrl: string | null;
  effectiveBaseUrl: string | null;
  hasApiKey: boolean;
  hasAccessToken: boolean;
  hasRefreshToken: boolean;
  accessTokenExpiresAt: Date | null;
  tokenScope: string | null;
  lastRefreshedAt: Date | null;
  lastRefreshError: string | null;
  lastTestedAt: Date | null;
  lastTestOk: boolean | null;
  lastTestError: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The provider OAuth session record of the contract. */
export interface SessionRecord {
  id: string;
  providerId: string;
  status: SessionStatus;
  authorizationUrl: string;
  completionMode: string;
  userCode: string | null;
  pollIntervalSeconds: number | null;
  connectionId: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  expiresAt: Date;
}

export interface ConnectionTestResult {
  ok: boolean;
  url: string;
  httpStatus: number | null;
  responseMs: number | null;
  modelCount: number;
  models: ModelInfo[];
  error: string | null;
  testedAt: Date;
}

export interface NewConnection {
  providerId: string;
  name: string;
  authType: AuthType;
  apiKey?: string | undefined;
  baseUrl?: string | undefined;
}

export interface ConnectionChange {
  name?: string | undefined;
  apiKey?: string | null | undefined;
  baseUrl?: string | null | undefined;
}

export interface ConnectionFilter extends PageRequest {
  providerId?: string | undefined;
  authType?: AuthType | undefined;
  q?: string | undefined;
}

export interface SessionFilter extends PageRequest {
  providerId?: string | undefined;
  status?: SessionStatus | undefined;
}

const DEFAULT_REDIRECT_TTL_SECONDS = 600;
const DEFAULT_POLL_INTERVAL_SECONDS = 5;
/** RFC 8628 §3.5: on slow_down the interval grows by 5 seconds. */
const SLOW_DOWN_STEP_SECONDS = 5;
/** Access tokens are renewed when they have less than this left. */
const REFRESH_MARGIN_MS = 5 * 60_000;
export const MAINTENANCE_JOB = 'inference.oauth-maintenance';

const sealContext = (column: string) => `inference_connections.${column}`;
const sessionSealContext = (column: string) => `inference_oauth_sessions.${column}`;

/**
 * What a pasted callback says: the full redirect URL (query or fragment), its query string alone,
 * or `code#state` as some providers display it.
 */
function parseCallback(raw: string): URLSearchParams | undefined {
  const text = raw.trim();
  if (text === '') return undefined;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return undefined;
    }
    if (url.searchParams.has('code') || url.searchParams.has('error')) return url.searchParams;
    const fragment = new URLSearchParams(url.hash.replace(/^#/, ''));
    if (fragment.has('code') || fragment.has('error')) return fragment;
    return undefined;
  }
  if (/^\??[^#\s]*=/.test(text)) {
    const params = new URLSearchParams(text.replace(/^\?/, ''));
    return params.has('code') || params.has('error') ? params : undefined;
  }
  const hash = text.indexOf('#');
  if (hash > 0 && hash < text.length - 1 && !/\s/.test(text)) {
    return new URLSearchParams({ code: text.slice(0, hash), state: text.slice(hash + 1) });
  }
  return undefined;
}

/** Maps an outbound failure to a 422 that names what went wrong; OAuth server errors are handled by callers. */
function outboundFailure(error: unknown, what: string): AppError {
  if (error instanceof AppError) return error;
  const denial = findEgressDenial(error);
  if (denial)
    return unprocessable('EGRESS_DENIED', `the egress policy refused ${what}: ${denial.rule}`, {
      host: denial.host,
    });
  const cause = error instanceof Error ? (error.cause instanceof Error ? error.cause : error) : undefined;
  return unprocessable(
    'PROVIDER_UNREACHABLE',
    `${what} failed: ${cause?.message ?? 'no answer from the provider'}`,
  );
}

/** oauth4webapi refuses answers that break the protocol (bad token response, wrong issuer…). */
function isProtocolViolation(error: unknown): error is Error {
  return (
    error instanceof Error &&
    (error.name === 'OperationProcessingError' || error.name === 'UnsupportedOperationError')
  );
}

/** The text with every credential (and its bare token after a `Bearer ` prefix) replaced. */
function scrub(text: string | null, credentials: string[]): string | null {
  if (text === null) return null;
  let clean = text;
  for (const credential of credentials.flatMap((value) => [value, value.replace(/^Bearer /, '')])) {
    if (credential.length >= 4) clean = clean.split(credential).join('[redacted]');
  }
  return clean;
}

/** Rolls back a session change whose conditional update found the session already finished. */
class SessionNoLongerPending extends Error {}

/** Inference providers: the catalog, connections and OAuth sign-in sessions. */
export class InferenceService {
  private readonly byId: Map<string, CatalogEntry>;
  private readonly sessionLocks = new Map<string, Promise<unknown>>();

  constructor(
    private readonly deps: Deps,
    private readonly entries: CatalogEntry[],
  ) {
    this.byId = new Map(entries.map((entry) => [entry.id, entry]));
  }

  // ---- catalog ---------------------------------------------------------------------------------

  catalog(): PublicCatalogEntry[] {
    return this.entries.map((entry) => {
      const { apiKeyHeader: _header, extraHeaders: _extra, oauth: _oauth, ...rest } = entry;
      return rest;
    });
  }

  private entryFor(providerId: string, path: string[] = ['providerId']): CatalogEntry {
    const entry = this.byId.get(providerId);
    if (!entry) throw invalidField(path, `no provider ${providerId} in the catalog`);
    return entry;
  }

  // ---- connections -----------------------------------------------------------------------------

  private view(row: ConnectionRow): ConnectionView {
    const entry = this.byId.get(row.providerId);
    return {
      id: row.id,
      providerId: row.providerId,
      providerLabel: entry?.label ?? null,
      name: row.name,
      authType: row.authType,
      baseUrl: row.baseUrl,
      effectiveBaseUrl: row.baseUrl ?? entry?.baseUrl ?? null,
      hasApiKey: row.apiKeySealed !== null,
      hasAccessToken: row.accessTokenSealed !== null,
      hasRefreshToken: row.refreshTokenSealed !== null,
      accessTokenExpiresAt: row.accessTokenExpiresAt,
      tokenScope: row.tokenScope,
      lastRefreshedAt: row.lastRefreshedAt,
      lastRefreshError: row.lastRefreshError,
      lastTestedAt: row.lastTestedAt,
      lastTestOk: row.lastTestOk,
      lastTestError: row.lastTestError,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }

  async listConnections(filter: ConnectionFilter) {
    const conditions: SQL[] = [];
    if (filter.providerId) conditions.push(eq(inferenceConnections.providerId, filter.providerId));
    if (filter.authType) conditions.push(eq(inferenceConnections.authType, filter.authType));
    if (filter.q) conditions.push(containsText(inferenceConnections.name, filter.q));
    const where = and(...conditions);
    return fetchPage(
      filter,
      ({ limit, offset }) =>
        this.deps.db
          .select()
          .from(inferenceConnections)
          .where(where)
          .orderBy(inferenceConnections.name)
          .limit(limit)
          .offset(offset),
      this.deps.db.select({ value: count() }).from(inferenceConnections).where(where),
      (row) => this.view(row),
    );
  }

  private async connectionRow(id: string, db: DbOrTx = this.deps.db): Promise<ConnectionRow> {
    const [row] = await db.select().from(inferenceConnections).where(eq(inferenceConnections.id, id));
    if (!row) throw notFound({ connectionId: id });
    return row;
  }

  async getConnection(id: string): Promise<ConnectionView> {
    return this.view(await this.connectionRow(id));
  }

  private checkBaseUrl(entry: CatalogEntry, baseUrl: string | null | undefined): void {
    if (baseUrl === undefined || baseUrl === null) return;
    if (!entry.allowBaseUrlOverride)
      throw invalidField(['baseUrl'], `provider ${entry.id} does not allow a base URL override`);
    if (!isHttpUrl(baseUrl)) throw invalidField(['baseUrl'], 'must be an http or https URL');
  }

  async createConnection(actor: AuditActor, input: NewConnection): Promise<ConnectionView> {
    const entry = this.entryFor(input.providerId);
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
    this.checkBaseUrl(entry, input.baseUrl);
    return this.deps.db.transaction(async (tx) => {
      const row = await this.insertConnection(tx, {
        providerId: entry.id,
        name,
        authType: input.authType,
        baseUrl: input.baseUrl ?? null,
        apiKeySealed: input.apiKey ? this.deps.secrets.seal(input.apiKey, sealContext('api_key')) : null,
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

  private async insertConnection(tx: DbOrTx, values: typeof inferenceConnections.$inferInsert) {
    const [row] = await conflictOnDuplicate(
      tx.insert(inferenceConnections).values(values).returning(),
      'CONNECTION_NAME_TAKEN',
      { name: values.name },
    );
    return row!;
  }

  async updateConnection(actor: AuditActor, id: string, change: ConnectionChange): Promise<ConnectionView> {
    const current = await this.connectionRow(id);
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
        change.apiKey === null ? null : this.deps.secrets.seal(change.apiKey, sealContext('api_key'));
      metadata.apiKey = change.apiKey === null ? 'removed' : 'replaced';
    }
    if (change.baseUrl !== undefined) {
      const entry = this.byId.get(current.providerId);
      if (!entry)
        throw invalidField(['baseUrl'], `provider ${current.providerId} is no longer in the catalog`);
      this.checkBaseUrl(entry, change.baseUrl);
      values.baseUrl = change.baseUrl;
      metadata.baseUrl = change.baseUrl;
    }
    return this.deps.db.transaction(async (tx) => {
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
  }

  async deleteConnection(actor: AuditActor, id: string): Promise<void> {
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

  /** Lists the provider's models with the connection's credentials, and records the outcome. */
  async testConnection(actor: AuditActor, id: string): Promise<ConnectionTestResult> {
    let row = await this.connectionRow(id);
    const entry = this.byId.get(row.providerId);
    if (!entry)
      throw unprocessable(
        'PROVIDER_NOT_IN_CATALOG',
        `provider ${row.providerId} is no longer in the catalog; restore it or delete this connection`,
      );
    if (!entry.modelsPath)
      throw unprocessable('MODELS_NOT_SUPPORTED', `the catalog names no modelsPath for provider ${entry.id}`);
    if (row.authType === 'oauth') row = await this.freshTokens(actor, row, entry);
    const url = joinUrl(row.baseUrl ?? entry.baseUrl, entry.modelsPath);
    const credentials = this.credentialHeaders(row, entry);
    const headers = { ...(entry.extraHeaders ?? {}), ...credentials };
    const testedAt = new Date();
    let result: ConnectionTestResult;
    try {
      const listing = await listModels(this.deps.egress, url, headers);
      result = {
        ok: listing.error === null,
        url,
        httpStatus: listing.httpStatus,
        responseMs: listing.responseMs,
        modelCount: listing.models.length,
        models: listing.models,
        // Some providers quote the credential they refused; it must not reach the answer or the audit trail.
        error: scrub(listing.error, Object.values(credentials)),
        testedAt,
      };
    } catch (error) {
      const failure = outboundFailure(error, `listing models at ${url}`);
      const details = failure.details as { reason?: string; explanation?: string };
      if (details.reason === 'EGRESS_DENIED') throw failure;
      result = {
        ok: false,
        url,
        httpStatus: null,
        responseMs: null,
        modelCount: 0,
        models: [],
        error: details.explanation ?? 'the provider could not be reached',
        testedAt,
      };
    }
    await this.deps.db.transaction(async (tx) => {
      await tx
        .update(inferenceConnections)
        .set({ lastTestedAt: testedAt, lastTestOk: result.ok, lastTestError: result.error })
        .where(eq(inferenceConnections.id, id));
      await this.deps.audit.record(tx, actor, {
        action: 'inference.connection.tested',
        targetType: 'inference_connection',
        targetId: id,
        outcome: result.ok ? 'success' : 'failure',
        metadata: { url, httpStatus: result.httpStatus, modelCount: result.modelCount, error: result.error },
      });
    });
    return result;
  }

  private credentialHeaders(row: ConnectionRow, entry: CatalogEntry): Record<string, string> {
    if (row.authType === 'oauth') {
      if (!row.accessTokenSealed)
        throw unprocessable('NO_ACCESS_TOKEN', 'this connection holds no access token; sign in again');
      return {
        authorization: `Bearer ${this.deps.secrets.open(row.accessTokenSealed, sealContext('access_token'))}`,
      };
    }
    if (!row.apiKeySealed) return {};
    const key = this.deps.secrets.open(row.apiKeySealed, sealContext('api_key'));
    const header = entry.apiKeyHeader ?? { name: 'authorization', prefix: 'Bearer ' };
    return { [header.name.toLowerCase()]: `${header.prefix ?? ''}${key}` };
  }

  // ---- OAuth tokens: refresh before expiry -------------------------------------------------------

  private oauthClient(entry: CatalogEntry): ProviderOAuthClient {
    if (!entry.oauth)
      throw unprocessable('OAUTH_NOT_SUPPORTED', `provider ${entry.id} does not sign in with OAuth`);
    return new ProviderOAuthClient(entry.oauth, this.deps.egress);
  }

  /** The row with an access token valid for a while yet, refreshing it first when it is about to expire. */
  private async freshTokens(
    actor: AuditActor,
    row: ConnectionRow,
    entry: CatalogEntry,
  ): Promise<ConnectionRow> {
    const expiring =
      row.accessTokenExpiresAt !== null &&
      row.accessTokenExpiresAt.getTime() - Date.now() < REFRESH_MARGIN_MS;
    if (!expiring || !row.refreshTokenSealed) return row;
    // A refusal is recorded on the connection; the test then shows what the provider says to the old token.
    await this.refreshConnection(actor, row, entry).catch(() => undefined);
    return this.connectionRow(row.id);
  }

  /** Forces a refresh now (operator action). */
  async refreshNow(actor: AuditActor, id: string): Promise<ConnectionView> {
    const row = await this.connectionRow(id);
    if (row.authType !== 'oauth' || !row.refreshTokenSealed)
      throw unprocessable(
        'NO_REFRESH_TOKEN',
        'only an OAuth connection holding a refresh token can be refreshed',
      );
    const entry = this.byId.get(row.providerId);
    if (!entry)
      throw unprocessable(
        'PROVIDER_NOT_IN_CATALOG',
        `provider ${row.providerId} is no longer in the catalog`,
      );
    await this.refreshConnection(actor, row, entry);
    return this.getConnection(id);
  }

  /** Renews the access token with the refresh token; a refusal is recorded on the connection and thrown as 422. */
  private async refreshConnection(actor: AuditActor, row: ConnectionRow, entry: CatalogEntry): Promise<void> {
    const refreshToken = this.deps.secrets.open(row.refreshTokenSealed!, sealContext('refresh_token'));
    let tokens: TokenSet;
    try {
      tokens = await this.oauthClient(entry).refresh(refreshToken);
    } catch (error) {
      const message =
        error instanceof OAuthServerError
          ? error.message
          : isProtocolViolation(error)
            ? error.message
            : ((outboundFailure(error, 'the token refresh').details as { explanation: string }).explanation ??
              'refresh failed');
      await this.deps.db.transaction(async (tx) => {
        await tx
          .update(inferenceConnections)
          .set({ lastRefreshError: message, updatedAt: new Date() })
          .where(eq(inferenceConnections.id, row.id));
        await this.deps.audit.record(tx, actor, {
          action: 'inference.connection.token_refreshed',
          targetType: 'inference_connection',
          targetId: row.id,
          outcome: 'failure',
          metadata: { error: message },
        });
      });
      throw unprocessable(
        'TOKEN_REFRESH_FAILED',
        `the provider refused to renew the access token: ${message}`,
      );
    }
    await this.deps.db.transaction(async (tx) => {
      await tx
        .update(inferenceConnections)
        .set({
          accessTokenSealed: this.deps.secrets.seal(tokens.accessToken, sealContext('access_token')),
          // A provider that rotates refresh tokens sends a new one; otherwise the old one stays valid.
          ...(tokens.refreshToken
            ? {
                refreshTokenSealed: this.deps.secrets.seal(tokens.refreshToken, sealContext('refresh_token')),
              }
            : {}),
          accessTokenExpiresAt: tokens.expiresAt,
          ...(tokens.scope !== undefined ? { tokenScope: tokens.scope } : {}),
          lastRefreshedAt: new Date(),
          lastRefreshError: null,
          updatedAt: new Date(),
        })
        .where(eq(inferenceConnections.id, row.id));
      await this.deps.audit.record(tx, actor, {
        action: 'inference.connection.token_refreshed',
        targetType: 'inference_connection',
        targetId: row.id,
        metadata: {
          accessTokenExpiresAt: tokens.expiresAt?.toISOString() ?? null,
          rotated: Boolean(tokens.refreshToken),
        },
      });
    });
  }

  /** Background work: renew access tokens about to expire, expire overdue sessions. */
  async maintenance(): Promise<void> {
    const due = await this.deps.db
      .select()
      .from(inferenceConnections)
      .where(
        and(
          eq(inferenceConnections.authType, 'oauth'),
          isNotNull(inferenceConnections.refreshTokenSealed),
          lt(inferenceConnections.accessTokenExpiresAt, new Date(Date.now() + REFRESH_MARGIN_MS)),
        ),
      );
    for (const row of due) {
      const entry = this.byId.get(row.providerId);
      if (!entry?.oauth) continue;
      try {
        await this.refreshConnection(systemActor(), row, entry);
      } catch (error) {
        this.deps.log.warn(
          { connectionId: row.id, reason: (error as Error).message },
          'token refresh failed',
        );
      }
    }
    await this.expireOverdue(systemActor());
  }

  // ---- OAuth sessions ----------------------------------------------------------------------------

  private record(row: SessionRow): SessionRecord {
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

  /** One completion or cancellation at a time per session in this process; updates are also conditional on `pending`. */
  private async withSessionLock<T>(id: string, work: () => Promise<T>): Promise<T> {
    const previous = this.sessionLocks.get(id) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(work);
    const tail = run.catch(() => undefined);
    this.sessionLocks.set(id, tail);
    try {
      return await run;
    } finally {
      if (this.sessionLocks.get(id) === tail) this.sessionLocks.delete(id);
    }
  }

  private async sessionRow(id: string, db: DbOrTx = this.deps.db): Promise<SessionRow> {
    if (!isUuid(id)) throw notFound({ sessionId: id });
    const [row] = await db.select().from(inferenceOauthSessions).where(eq(inferenceOauthSessions.id, id));
    if (!row) throw notFound({ sessionId: id });
    return row;
  }

  /**
   * Moves a pending session to a final state (in a transaction with its audit event); when another
   * process got there first, answers the session as it now is.
   */
  private async finish(
    actor: AuditActor,
    row: SessionRow,
    status: Exclude<SessionStatus, 'pending'>,
    values: Partial<typeof inferenceOauthSessions.$inferInsert>,
    before?: (tx: DbOrTx) => Promise<Partial<typeof inferenceOauthSessions.$inferInsert>>,
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
    return changed ?? this.sessionRow(row.id);
  }

  private async expireIfOverdue(actor: AuditActor, row: SessionRow): Promise<SessionRow> {
    if (row.status !== 'pending' || row.expiresAt.getTime() > Date.now()) return row;
    return this.finish(actor, row, 'expired', {
      errorCode: 'expired',
      errorMessage: 'the session passed its expiresAt before it was completed',
    });
  }

  async startSession(
    actor: AuditActor,
    input: { providerId: string; name?: string | undefined },
  ): Promise<SessionRecord> {
    const entry = this.entryFor(input.providerId);
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
    const client = this.oauthClient(entry);
    const seal = this.deps.secrets;
    let values: typeof inferenceOauthSessions.$inferInsert;
    if (entry.oauthFlow === 'redirect') {
      const state = randomState();
      const verifier = randomCodeVerifier();
      values = {
        id,
        providerId: entry.id,
        status: 'pending',
        flow: 'redirect',
        completionMode: entry.completionMode ?? 'paste_callback',
        authorizationUrl: await client.authorizationUrl(state, verifier),
        connectionName,
        stateSealed: seal.seal(state, sessionSealContext('state')),
        codeVerifierSealed: seal.seal(verifier, sessionSealContext('code_verifier')),
        redirectUri: entry.oauth.redirectUri!,
        expiresAt: new Date(
          Date.now() + (entry.oauth.sessionTtlSeconds ?? DEFAULT_REDIRECT_TTL_SECONDS) * 1000,
        ),
        createdBy: actor.userId,
      };
    } else {
      let device: Awaited<ReturnType<ProviderOAuthClient['startDevice']>>;
      try {
        device = await client.startDevice();
      } catch (error) {
        if (error instanceof OAuthServerError)
          throw unprocessable(
            'OAUTH_REJECTED',
            `the provider refused the device authorization: ${error.message}`,
            {
              errorCode: error.error,
            },
          );
        if (isProtocolViolation(error))
          throw unprocessable(
            'OAUTH_INVALID_RESPONSE',
            `the provider's device authorization answer is unusable: ${error.message}`,
          );
        throw outboundFailure(error, 'the device authorization request');
      }
      values = {
        id,
        providerId: entry.id,
        status: 'pending',
        flow: 'device',
        completionMode: entry.completionMode ?? 'device_poll',
        authorizationUrl: device.verificationUri,
        connectionName,
        deviceCodeSealed: seal.seal(device.deviceCode, sessionSealContext('device_code')),
        userCode: device.userCode,
        pollIntervalSeconds: device.interval ?? DEFAULT_POLL_INTERVAL_SECONDS,
        expiresAt: new Date(Date.now() + device.expiresIn * 1000),
        createdBy: actor.userId,
      };
    }
    return this.deps.db.transaction(async (tx) => {
      const [row] = await tx.insert(inferenceOauthSessions).values(values).returning();
      await this.deps.audit.record(tx, actor, {
        action: 'inference.oauth_session.started',
        targetType: 'inference_oauth_session',
        targetId: id,
        metadata: { providerId: entry.id, flow: entry.oauthFlow, connectionName },
      });
      return this.record(row!);
    });
  }

  async getSession(actor: AuditActor, id: string): Promise<SessionRecord> {
    const row = await this.sessionRow(id);
    if (row.status !== 'pending') return this.record(row);
    return this.withSessionLock(id, async () =>
      this.record(await this.expireIfOverdue(actor, await this.sessionRow(id))),
    );
  }

  async listSessions(actor: AuditActor, filter: SessionFilter) {
    await this.expireOverdue(actor);
    const conditions: SQL[] = [];
    if (filter.providerId) conditions.push(eq(inferenceOauthSessions.providerId, filter.providerId));
    if (filter.status) conditions.push(eq(inferenceOauthSessions.status, filter.status));
    const where = and(...conditions);
    return fetchPage(
      filter,
      ({ limit, offset }) =>
        this.deps.db
          .select()
          .from(inferenceOauthSessions)
          .where(where)
          .orderBy(desc(inferenceOauthSessions.createdAt), desc(inferenceOauthSessions.id))
          .limit(limit)
          .offset(offset),
      this.deps.db.select({ value: count() }).from(inferenceOauthSessions).where(where),
      (row) => this.record(row),
    );
  }

  /** Marks pending sessions past expiresAt expired; each is re-read under its lock, as another gateway may have finished it. */
  private async expireOverdue(actor: AuditActor): Promise<void> {
    const overdue = await this.deps.db
      .select({ id: inferenceOauthSessions.id })
      .from(inferenceOauthSessions)
      .where(
        and(eq(inferenceOauthSessions.status, 'pending'), lt(inferenceOauthSessions.expiresAt, new Date())),
      );
    for (const { id } of overdue)
      await this.withSessionLock(id, async () => this.expireIfOverdue(actor, await this.sessionRow(id)));
  }

  async cancelSession(actor: AuditActor, id: string): Promise<SessionRecord> {
    return this.withSessionLock(id, async () => {
      const row = await this.expireIfOverdue(actor, await this.sessionRow(id));
      if (row.status !== 'pending') return this.record(row);
      return this.record(await this.finish(actor, row, 'cancelled', {}));
    });
  }

  /** Endpoint 18: completes a redirect session with its pasted callback, or polls a device session once. */
  async completeSession(actor: AuditActor, id: string, callback: string | undefined): Promise<SessionRecord> {
    return this.withSessionLock(id, async () => {
      const row = await this.expireIfOverdue(actor, await this.sessionRow(id));
      if (row.status !== 'pending') return this.record(row);
      const entry = this.byId.get(row.providerId);
      if (!entry?.oauth)
        return this.record(
          await this.finish(actor, row, 'error', {
            errorCode: 'provider_not_in_catalog',
            errorMessage: `provider ${row.providerId} is no longer in the catalog`,
          }),
        );
      const finished =
        row.flow === 'redirect'
          ? await this.completeRedirect(actor, row, entry, callback)
          : await this.pollDevice(actor, row, entry);
      return this.record(finished);
    });
  }

  private async completeRedirect(
    actor: AuditActor,
    row: SessionRow,
    entry: CatalogEntry,
    callback: string | undefined,
  ): Promise<SessionRow> {
    if (callback === undefined)
      throw unprocessable(
        'CALLBACK_REQUIRED',
        'this session completes with the callback URL the provider redirected the browser to (or code#state); send it as callback',
      );
    const params = parseCallback(callback);
    if (!params)
      throw invalidField(['callback'], 'expected the full callback URL, its query string, or code#state');
    const state = this.deps.secrets.open(row.stateSealed!, sessionSealContext('state'));
    if (params.get('state') !== state)
      return this.finish(actor, row, 'error', {
        errorCode: 'state_mismatch',
        errorMessage: 'the callback does not carry the state of this session; start a new session',
      });
    if (params.has('error'))
      return this.finish(actor, row, 'error', {
        errorCode: params.get('error')!.slice(0, 200),
        errorMessage: (params.get('error_description') ?? 'the provider refused the authorization').slice(
          0,
          1000,
        ),
      });
    if (!params.get('code')) throw invalidField(['callback'], 'the callback carries no code');
    const verifier = this.deps.secrets.open(row.codeVerifierSealed!, sessionSealContext('code_verifier'));
    let tokens: TokenSet;
    try {
      tokens = await this.oauthClient(entry).exchangeCode(params, state, row.redirectUri!, verifier);
    } catch (error) {
      return this.oauthFailure(actor, row, error, 'the code exchange');
    }
    return this.completeWithTokens(actor, row, tokens);
  }

  private async pollDevice(actor: AuditActor, row: SessionRow, entry: CatalogEntry): Promise<SessionRow> {
    const deviceCode = this.deps.secrets.open(row.deviceCodeSealed!, sessionSealContext('device_code'));
    let tokens: TokenSet;
    try {
      tokens = await this.oauthClient(entry).pollDevice(deviceCode);
    } catch (error) {
      if (error instanceof OAuthServerError && ['authorization_pending', 'slow_down'].includes(error.error)) {
        const interval = row.pollIntervalSeconds ?? DEFAULT_POLL_INTERVAL_SECONDS;
        const [updated] = await this.deps.db
          .update(inferenceOauthSessions)
          .set({
            lastPolledAt: new Date(),
            pollIntervalSeconds: error.error === 'slow_down' ? interval + SLOW_DOWN_STEP_SECONDS : interval,
            updatedAt: new Date(),
          })
          .where(and(eq(inferenceOauthSessions.id, row.id), eq(inferenceOauthSessions.status, 'pending')))
          .returning();
        return updated ?? this.sessionRow(row.id);
      }
      if (error instanceof OAuthServerError && error.error === 'expired_token')
        return this.finish(actor, row, 'expired', {
          errorCode: 'expired_token',
          errorMessage: error.description ?? 'the device code expired before the user approved it',
        });
      return this.oauthFailure(actor, row, error, 'polling the token endpoint');
    }
    return this.completeWithTokens(actor, row, tokens);
  }

  /** OAuth refusals end the session in `error`; transport trouble is a 422 and the session stays pending. */
  private async oauthFailure(
    actor: AuditActor,
    row: SessionRow,
    error: unknown,
    what: string,
  ): Promise<SessionRow> {
    if (error instanceof OAuthServerError)
      return this.finish(actor, row, 'error', {
        errorCode: error.error.slice(0, 200),
        errorMessage: (error.description ?? `the provider refused ${what}`).slice(0, 1000),
      });
    if (isProtocolViolation(error))
      return this.finish(actor, row, 'error', {
        errorCode: 'invalid_provider_response',
        errorMessage: `the provider's answer to ${what} is unusable: ${error.message}`.slice(0, 1000),
      });
    throw outboundFailure(error, what);
  }

  private async completeWithTokens(
    actor: AuditActor,
    row: SessionRow,
    tokens: TokenSet,
  ): Promise<SessionRow> {
    const seal = this.deps.secrets;
    try {
      return await this.finish(
        actor,
        row,
        'complete',
        { errorCode: null, errorMessage: null },
        async (tx) => {
          const connection = await this.insertConnection(tx, {
            providerId: row.providerId,
            name: row.connectionName,
            authType: 'oauth',
            accessTokenSealed: seal.seal(tokens.accessToken, sealContext('access_token')),
            refreshTokenSealed: tokens.refreshToken
              ? seal.seal(tokens.refreshToken, sealContext('refresh_token'))
              : null,
            accessTokenExpiresAt: tokens.expiresAt,
            tokenScope: tokens.scope ?? null,
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
}
