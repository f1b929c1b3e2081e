import { and, asc, count, eq } from 'drizzle-orm';
import type { Actor, AuditActor } from '../../core/actor.js';
import { visibleResources } from '../../core/auth/visible-resources.js';
import { conflictOnDuplicate } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { AppError, conflict, invalidField, notFound, unprocessable } from '../../core/errors.js';
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
import type { DbOrTx } from '../../db/client.js';
import { repohostConnectors, type TestFailure } from '../../db/schema/index.js';
import { auditEntry, checkAllowlist, resolveAllowlist } from './allowlist.js';
import { GitlabClient } from './gitlab.js';
import type {
  AllowlistRequest,
  Connector,
  ConnectorChanges,
  ConnectorListQuery,
  NewConnector,
  PreviewRequest,
  PreviewResult,
  TestReport,
} from './schemas.js';
import { noCapabilities, probeToken } from './token-probe.js';

const TOKEN_CONTEXT = 'repohost_connectors.token';

/** Refuses base URLs that cannot be a GitLab root before anything goes out. */
function checkBaseUrl(raw: string): string {
  const path = ['baseUrl'];
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidField(path, 'must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalidField(path, 'must use http or https');
  if (url.username || url.password)
    throw invalidField(path, 'must not carry credentials; send the token in token');
  if (url.search || url.hash) throw invalidField(path, 'must not have a query or a fragment');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * Detail fields that hold machine-readable codes the gateway itself chose (`TOKEN_REJECTED`, an error
 * code such as `ECONNREFUSED`, an egress rule, `group`/`project`): never host text, so never the token.
 */
const MACHINE_CODE_KEYS = new Set(['reason', 'cause', 'rule', 'entryType']);

/** The token cut out of the text values of `value`; keys, structure and machine codes untouched. */
function redactToken(value: unknown, token: string): unknown {
  if (typeof value === 'string') return value.split(token).join('[redacted]');
  if (Array.isArray(value)) return value.map((item) => redactToken(item, token));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        MACHINE_CODE_KEYS.has(key) ? item : redactToken(item, token),
      ]),
    );
  return value;
}

/** Host-supplied text never carries the token back out, whatever the host did with it. */
function scrub(error: unknown, token: string): unknown {
  if (!(error instanceof AppError) || token.length === 0) return error;
  return new AppError(error.code, redactToken(error.details ?? null, token), error.message, error.statusCode);
}

/**
 * Repository host connectors: saved only once a test of the URL and token passes (token-probe.ts) and
 * every allowlist entry is something the token sees (allowlist.ts); re-tests are recorded.
 */
export class ConnectorService {
  constructor(private readonly deps: Pick<Deps, 'db' | 'audit' | 'secrets' | 'egress' | 'config'>) {}

  /** A client for one test's calls to the host (they share one deadline). */
  private client(baseUrl: string, token: string): GitlabClient {
    return new GitlabClient({
      egress: this.deps.egress,
      baseUrl,
      token,
      timeoutMs: this.deps.config.repohostTimeoutMs,
    });
  }

  /** Tests the token on the host: what it can do and what it sees. */
  private runTest(baseUrl: string, token: string): Promise<PreviewResult> {
    return probeToken(this.client(baseUrl, token), this.deps.config.repohostPreviewMaxItems);
  }

  /** One-time test with a submitted token; failures are 422s. The token is used for these calls only. */
  async preview(input: PreviewRequest): Promise<PreviewResult> {
    const baseUrl = checkBaseUrl(input.baseUrl);
    try {
      return await this.runTest(baseUrl, input.token);
    } catch (error) {
      throw scrub(error, input.token);
    }
  }

  /** Tests the connection and resolves the allowlist, or throws the 422 that says why not. */
  private async testForSave(baseUrl: string, token: string, allowlist: AllowlistRequest[]) {
    try {
      const preview = await this.runTest(baseUrl, token);
      const entries = await resolveAllowlist(this.client(baseUrl, token), preview, allowlist);
      return { preview, entries };
    } catch (error) {
      throw scrub(error, token);
    }
  }

  /** The connectors the actor may see (all with an area-wide scope). */
  async list(actor: Actor, filter: ConnectorListQuery) {
    const where = and(
      visibleResources(repohostConnectors.id, actor, 'integrations:view'),
      filter.q ? containsText(repohostConnectors.name, filter.q) : undefined,
    );
    return fetchPage(
      filter,
      ({ limit, offset }) =>
        this.deps.db
          .select()
          .from(repohostConnectors)
          .where(where)
          .orderBy(asc(repohostConnectors.name))
          .limit(limit)
          .offset(offset),
      this.deps.db.select({ value: count() }).from(repohostConnectors).where(where),
      toView,
    );
  }

  async get(id: string, db: DbOrTx = this.deps.db): Promise<Connector> {
    const [row] = await db.select().from(repohostConnectors).where(eq(repohostConnectors.id, id));
    if (!row) throw notFound({ connectorId: id });
    return toView(row);
  }

  async create(actor: AuditActor, input: NewConnector): Promise<Connector> {
    const name = trimmedName(input.name);
    const baseUrl = checkBaseUrl(input.baseUrl);
    checkAllowlist(input.allowlist ?? []);
    await this.ensureNameFree(name);
    const { preview, entries } = await this.testForSave(baseUrl, input.token, input.allowlist ?? []);
    return this.deps.db.transaction(async (tx) => {
      const [{ id }] = (await conflictOnDuplicate(
        tx
          .insert(repohostConnectors)
          .values({
            name,
            baseUrl,
            tokenSealed: this.deps.secrets.seal(input.token, TOKEN_CONTEXT),
            allowlist: entries,
            ...testColumns(preview),
          })
          .returning({ id: repohostConnectors.id }),
        'CONNECTOR_NAME_TAKEN',
        { name },
      )) as [{ id: string }];
      await this.deps.audit.record(tx, actor, {
        action: 'repohost.connector.created',
        targetType: 'repohost_connector',
        targetId: id,
        metadata: {
          name,
          baseUrl,
          allowlist: entries.map(auditEntry),
          capabilities: preview.capabilities,
        },
      });
      return this.get(id, tx);
    });
  }

  /**
   * Changes a connector; a new URL, token or allowlist is tested first. A new base URL (scheme, host,
   * port or path) needs the area-wide integrations:manage, and drops the stored token unless the
   * change sends one: the token never reaches a host it was not given for, not even in this test.
   */
  async update(actor: AuditActor, id: string, changes: ConnectorChanges) {
    // Bad input is a 400 before an unknown id is a 404.
    const newName = changes.name === undefined ? undefined : trimmedName(changes.name);
    const newBaseUrl = changes.baseUrl === undefined ? undefined : checkBaseUrl(changes.baseUrl);
    if (changes.allowlist) checkAllowlist(changes.allowlist);
    const current = await this.loadRow(id);
    const moved = movedDestinations(current, { baseUrl: newBaseUrl }, ['baseUrl']);
    requireAreaScopeToMove(actor, 'integrations:manage', moved);
    const dropped = secretsToDrop(moved.length > 0, {
      token: { stored: current.tokenSealed !== null, supplied: changes.token !== undefined },
    });
    const name = newName ?? current.name;
    const baseUrl = newBaseUrl ?? current.baseUrl;
    if (name !== current.name) await this.ensureNameFree(name);
    const values: Partial<typeof repohostConnectors.$inferInsert> = { name, baseUrl, updatedAt: new Date() };
    if (dropped.length > 0) values.tokenSealed = null;
    const retest =
      changes.baseUrl !== undefined || changes.token !== undefined || changes.allowlist !== undefined;
    const token =
      changes.token ??
      (dropped.length > 0 || current.tokenSealed === null
        ? null
        : this.deps.secrets.open(current.tokenSealed, TOKEN_CONTEXT));
    if (retest && token === null) {
      if (changes.allowlist !== undefined)
        throw unprocessable(
          'TOKEN_REQUIRED',
          'the allowlist is checked on the host with the token, and this connector has none: send token with it',
        );
      // Only the place changed: nothing can be tested without a token, and the old findings were the old token's.
      Object.assign(values, tokenlessColumns());
    } else if (retest && token !== null) {
      const wanted =
        changes.allowlist ??
        current.allowlist.map(({ entryType, remoteId, fullPath }) => ({ entryType, remoteId, fullPath }));
      const { preview, entries } = await this.testForSave(baseUrl, token, wanted);
      Object.assign(values, testColumns(preview), { allowlist: entries });
      if (changes.token !== undefined)
        values.tokenSealed = this.deps.secrets.seal(changes.token, TOKEN_CONTEXT);
    }
    const connector = await this.deps.db.transaction(async (tx) => {
      const [row] = await conflictOnDuplicate(
        tx
          .update(repohostConnectors)
          .set(values)
          .where(eq(repohostConnectors.id, id))
          .returning({ id: repohostConnectors.id }),
        'CONNECTOR_NAME_TAKEN',
        { name },
      );
      if (!row) throw notFound({ connectorId: id });
      await this.deps.audit.record(tx, actor, {
        action: 'repohost.connector.updated',
        targetType: 'repohost_connector',
        targetId: id,
        metadata: {
          name,
          baseUrl,
          changed: Object.keys(changes).filter((key) => changes[key as keyof ConnectorChanges] !== undefined),
          ...(values.allowlist ? { allowlist: values.allowlist.map(auditEntry) } : {}),
          ...droppedSecretsNote(dropped),
        },
      });
      return this.get(id, tx);
    });
    return withDroppedSecrets(connector, dropped);
  }

  async remove(actor: AuditActor, id: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .delete(repohostConnectors)
        .where(eq(repohostConnectors.id, id))
        .returning({ name: repohostConnectors.name, baseUrl: repohostConnectors.baseUrl });
      if (!row) throw notFound({ connectorId: id });
      await this.deps.audit.record(tx, actor, {
        action: 'repohost.connector.deleted',
        targetType: 'repohost_connector',
        targetId: id,
        metadata: row,
      });
    });
  }

  /** Re-tests a saved connector with its stored token and records the outcome; a failure is a report, not an error. */
  async test(actor: AuditActor, id: string): Promise<TestReport> {
    const row = await this.loadRow(id);
    const testedAt = new Date();
    const report =
      row.tokenSealed === null
        ? failedReport(NO_TOKEN, testedAt)
        : await this.retest(row.baseUrl, this.deps.secrets.open(row.tokenSealed, TOKEN_CONTEXT), testedAt);
    await this.deps.db.transaction(async (tx) => {
      const columns = report.ok
        ? testColumns(report)
        : {
            capabilities: report.capabilities,
            lastTestedAt: testedAt,
            lastTestOk: false,
            lastTestError: report.error,
          };
      await tx.update(repohostConnectors).set(columns).where(eq(repohostConnectors.id, id));
      await this.deps.audit.record(tx, actor, {
        action: 'repohost.connector.tested',
        targetType: 'repohost_connector',
        targetId: id,
        outcome: report.ok ? 'success' : 'failure',
        metadata: { name: row.name, ok: report.ok, ...(report.error ? { reason: report.error.reason } : {}) },
      });
    });
    return report;
  }

  /** A test of the stored token: a failure the host explains is a report, not an error. */
  private async retest(baseUrl: string, token: string, testedAt: Date): Promise<TestReport> {
    try {
      const preview = await this.runTest(baseUrl, token);
      return { ...preview, ok: true, testedAt, error: null };
    } catch (error) {
      const scrubbed = scrub(error, token);
      if (!(scrubbed instanceof AppError) || scrubbed.code !== 'UNPROCESSABLE_ENTITY') throw scrubbed;
      const { reason, explanation } = scrubbed.details as TestFailure;
      return failedReport({ reason, explanation }, testedAt);
    }
  }

  private async loadRow(id: string) {
    const [row] = await this.deps.db.select().from(repohostConnectors).where(eq(repohostConnectors.id, id));
    if (!row) throw notFound({ connectorId: id });
    return row;
  }

  private async ensureNameFree(name: string): Promise<void> {
    const [existing] = await this.deps.db
      .select({ id: repohostConnectors.id })
      .from(repohostConnectors)
      .where(eq(repohostConnectors.name, name));
    if (existing) throw conflict('CONNECTOR_NAME_TAKEN', { name });
  }
}

/** Why a connector without a token cannot be tested. */
const NO_TOKEN: TestFailure = {
  reason: 'TOKEN_REQUIRED',
  explanation:
    'the base URL changed and the token given for the old one was dropped: send the token again (PATCH token)',
};

/** The report of a test that failed for `failure`; the host answered when it refused the token or is not GitLab. */
function failedReport(failure: TestFailure, testedAt: Date): TestReport {
  const capabilities = noCapabilities();
  capabilities.apiReachable = failure.reason === 'TOKEN_REJECTED' || failure.reason === 'NOT_GITLAB';
  return {
    capabilities,
    allowlistEntries: [],
    user: null,
    tokenExpiresAt: null,
    tokenScopes: null,
    probedProject: null,
    truncated: false,
    ok: false,
    testedAt,
    error: failure,
  };
}

/** The connector columns of one left without a token: nothing known about a token, nothing tested. */
function tokenlessColumns() {
  return {
    capabilities: noCapabilities(),
    tokenScopes: null,
    tokenExpiresAt: null,
    remoteUser: null,
    lastTestedAt: new Date(),
    lastTestOk: false,
    lastTestError: NO_TOKEN,
  };
}

/** The connector columns that record a passed test. */
function testColumns(preview: PreviewResult) {
  return {
    capabilities: preview.capabilities,
    tokenScopes: preview.tokenScopes,
    tokenExpiresAt: preview.tokenExpiresAt,
    remoteUser: preview.user,
    lastTestedAt: new Date(),
    lastTestOk: true,
    lastTestError: null,
  };
}

function toView(row: typeof repohostConnectors.$inferSelect): Connector {
  const { tokenSealed, ...view } = row;
  return { ...view, hasToken: tokenSealed !== null };
}
