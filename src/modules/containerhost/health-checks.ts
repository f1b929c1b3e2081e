import { and, asc, count, desc, eq, inArray, lte, notInArray, sql } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { AppError, invalidField, notFound } from '../../core/errors.js';
import { fetchPage, type Page, type PageRequest } from '../../core/pagination.js';
import type { DbOrTx } from '../../db/client.js';
import { containerhostHealthChecks, containerhostHealthResults } from '../../db/schema/index.js';
import type { EngineNodeService } from './engine-nodes.js';
import { probeContainer, unmeasuredResult } from './health-probe.js';
import {
  HEALTH_CHECK_DEFAULTS,
  type HealthCheckConfig,
  type HealthCheckInput,
  type HealthResult,
  type SavedHealthCheck,
  type SavedHealthResult,
} from './schemas/health-checks.js';

/** The background job that runs due saved checks (registered by module.ts). */
export const HEALTH_JOB = 'containerhost.health-checks';
/** How many due checks the background job probes at once. */
const JOB_CONCURRENCY = 4;

function configOf(row: typeof containerhostHealthChecks.$inferSelect): HealthCheckConfig {
  return {
    enabled: row.enabled,
    scheme: row.scheme,
    hostPort: row.hostPort,
    containerPort: row.containerPort,
    path: row.path,
    statusMin: row.statusMin,
    statusMax: row.statusMax,
    expectedBody: row.expectedBody,
    bodyMatchMode: row.bodyMatchMode,
    intervalSeconds: row.intervalSeconds,
    timeoutSeconds: row.timeoutSeconds,
    slowThreshold: row.slowThreshold,
  };
}

function checkRange(config: HealthCheckConfig): HealthCheckConfig {
  if (config.statusMin > config.statusMax)
    throw invalidField(['statusMin'], 'must be less than or equal to statusMax');
  if (!config.path.startsWith('/')) throw invalidField(['path'], 'must start with /');
  return config;
}

/** Saved health checks per container name, one-off tests, and the background runner. */
export class HealthCheckService {
  constructor(
    private readonly deps: Pick<Deps, 'db' | 'audit' | 'egress' | 'config' | 'notifications'> & {
      engineNodes: EngineNodeService;
    },
  ) {}

  async getSaved(nodeId: string, containerName: string): Promise<SavedHealthCheck> {
    await this.deps.engineNodes.row(nodeId);
    const row = await this.savedRow(nodeId, containerName);
    if (!row) throw notFound({ nodeId, containerName, reason: 'NO_HEALTH_CHECK' });
    return this.view(row);
  }

  async save(
    actor: AuditActor,
    nodeId: string,
    containerName: string,
    input: HealthCheckInput,
  ): Promise<SavedHealthCheck> {
    const config = checkRange({ ...HEALTH_CHECK_DEFAULTS, ...input });
    return this.deps.db.transaction(async (tx) => {
      await this.deps.engineNodes.row(nodeId, tx);
      const values = { ...config, nodeId, containerName, nextRunAt: new Date(), updatedAt: new Date() };
      const [row] = await tx
        .insert(containerhostHealthChecks)
        .values(values)
        .onConflictDoUpdate({
          target: [containerhostHealthChecks.nodeId, containerhostHealthChecks.containerName],
          set: values,
        })
        .returning();
      await this.deps.audit.record(tx, actor, {
        action: 'containerhost.health_check.saved',
        targetType: 'containerhost_health_check',
        targetId: row!.id,
        metadata: { nodeId, containerName, ...config },
      });
      // A disabled check no longer runs: its last status would stay an open alert, so it reports disabled.
      if (!config.enabled) await this.reportStatus(tx, row!, 'disabled', new Date(), {});
      return this.view(row!);
    });
  }

  async remove(actor: AuditActor, nodeId: string, containerName: string) {
    await this.deps.db.transaction(async (tx) => {
      await this.deps.engineNodes.row(nodeId, tx);
      const [row] = await tx
        .delete(containerhostHealthChecks)
        .where(
          and(
            eq(containerhostHealthChecks.nodeId, nodeId),
            eq(containerhostHealthChecks.containerName, containerName),
          ),
        )
        .returning({ id: containerhostHealthChecks.id });
      if (!row) throw notFound({ nodeId, containerName, reason: 'NO_HEALTH_CHECK' });
      await this.deps.audit.record(tx, actor, {
        action: 'containerhost.health_check.deleted',
        targetType: 'containerhost_health_check',
        targetId: row.id,
        metadata: { nodeId, containerName },
      });
    });
  }

  async results(nodeId: string, containerName: string, page: PageRequest): Promise<Page<SavedHealthResult>> {
    await this.deps.engineNodes.row(nodeId);
    const check = await this.savedRow(nodeId, containerName);
    if (!check) throw notFound({ nodeId, containerName, reason: 'NO_HEALTH_CHECK' });
    const where = eq(containerhostHealthResults.checkId, check.id);
    return fetchPage(
      page,
      ({ limit, offset }) =>
        this.deps.db
          .select()
          .from(containerhostHealthResults)
          .where(where)
          .orderBy(desc(containerhostHealthResults.checkedAt), desc(containerhostHealthResults.id))
          .limit(limit)
          .offset(offset),
      this.deps.db.select({ value: count() }).from(containerhostHealthResults).where(where),
      resultView,
    );
  }

  /** One probe now: the saved config (if any) overlaid by the request body. Records nothing. */
  async test(nodeId: string, containerName: string, input: HealthCheckInput): Promise<HealthResult> {
    // The body alone is checked first, so a bad request is a 400 before any lookup can 404.
    checkRange({ ...HEALTH_CHECK_DEFAULTS, ...input });
    const { engine } = await this.deps.engineNodes.engine(nodeId);
    const saved = await this.savedRow(nodeId, containerName);
    const config = checkRange({ ...HEALTH_CHECK_DEFAULTS, ...(saved ? configOf(saved) : {}), ...input });
    return probeContainer(this.deps.egress, engine, containerName, config);
  }

  /**
   * Claims every enabled saved check that is due (moving its next run one interval ahead, with SKIP
   * LOCKED so several gateway instances share the work), probes them, and keeps the last N results.
   */
  async runDue(): Promise<void> {
    const claimable = this.deps.db
      .select({ id: containerhostHealthChecks.id })
      .from(containerhostHealthChecks)
      .where(
        and(
          eq(containerhostHealthChecks.enabled, true),
          lte(containerhostHealthChecks.nextRunAt, new Date()),
        ),
      )
      .orderBy(asc(containerhostHealthChecks.nextRunAt))
      .limit(100)
      .for('update', { skipLocked: true });
    const due = await this.deps.db
      .update(containerhostHealthChecks)
      .set({ nextRunAt: sql`now() + make_interval(secs => ${containerhostHealthChecks.intervalSeconds})` })
      .where(inArray(containerhostHealthChecks.id, claimable))
      .returning();
    const queue = [...due];
    const worker = async () => {
      for (let check = queue.shift(); check; check = queue.shift()) await this.runSaved(check);
    };
    await Promise.all(Array.from({ length: JOB_CONCURRENCY }, worker));
  }

  private async runSaved(check: typeof containerhostHealthChecks.$inferSelect): Promise<void> {
    let result: HealthResult;
    try {
      const { engine } = await this.deps.engineNodes.engine(check.nodeId);
      result = await probeContainer(this.deps.egress, engine, check.containerName, configOf(check));
    } catch (error) {
      const explanation =
        error instanceof AppError
          ? String((error.details as { explanation?: string })?.explanation ?? error.code)
          : String(error);
      result = unmeasuredResult(
        'offline',
        null,
        error instanceof AppError && error.code === 'NOT_FOUND' ? 'container not found' : explanation,
      );
    }
    const keep = this.deps.config.healthCheckHistory;
    await this.deps.db.transaction(async (tx) => {
      await tx
        .insert(containerhostHealthResults)
        .values({ ...result, error: result.error ?? null, checkId: check.id });
      const newest = tx
        .select({ id: containerhostHealthResults.id })
        .from(containerhostHealthResults)
        .where(eq(containerhostHealthResults.checkId, check.id))
        .orderBy(desc(containerhostHealthResults.checkedAt), desc(containerhostHealthResults.id))
        .limit(keep);
      await tx
        .delete(containerhostHealthResults)
        .where(
          and(
            eq(containerhostHealthResults.checkId, check.id),
            notInArray(containerhostHealthResults.id, newest),
          ),
        );
      // Every run reports its status; the outbox notifies only when it changed (and on recovery).
      await this.reportStatus(tx, check, result.status, result.checkedAt, {
        url: result.url,
        httpStatus: result.httpStatus,
        responseMs: result.responseMs,
        ...(result.error ? { error: result.error } : {}),
      });
    });
  }

  private reportStatus(
    tx: DbOrTx,
    check: typeof containerhostHealthChecks.$inferSelect,
    state: HealthResult['status'],
    occurredAt: Date,
    details: Record<string, unknown>,
  ) {
    return this.deps.notifications.emit(tx, {
      kind: 'containerhost.health_check.changed',
      resource: { type: 'containerhost_health_check', id: check.id, name: check.containerName },
      labels: { nodeId: check.nodeId, containerName: check.containerName },
      state,
      occurredAt,
      details,
    });
  }

  private async savedRow(nodeId: string, containerName: string) {
    const [row] = await this.deps.db
      .select()
      .from(containerhostHealthChecks)
      .where(
        and(
          eq(containerhostHealthChecks.nodeId, nodeId),
          eq(containerhostHealthChecks.containerName, containerName),
        ),
      );
    return row;
  }

  private view(row: typeof containerhostHealthChecks.$inferSelect): SavedHealthCheck {
    return {
      id: row.id,
      nodeId: row.nodeId,
      containerName: row.containerName,
      ...configOf(row),
      nextRunAt: row.nextRunAt,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }
}

function resultView(row: typeof containerhostHealthResults.$inferSelect): SavedHealthResult {
  return {
    id: row.id,
    ok: row.ok,
    status: row.status,
    httpStatus: row.httpStatus,
    responseMs: row.responseMs,
    slow: row.slow,
    bodyMatched: row.bodyMatched,
    url: row.url,
    ...(row.error ? { error: row.error } : {}),
    checkedAt: row.checkedAt,
  };
}
