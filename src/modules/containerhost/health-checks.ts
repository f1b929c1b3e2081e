import { and, asc, count, desc, eq, inArray, lte, notInArray, sql } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { findEgressDenial } from '../../core/egress-guard.js';
import { AppError, invalidField, notFound, unprocessable } from '../../core/errors.js';
import { fetchPage, type Page, type PageRequest } from '../../core/pagination.js';
import { containerhostHealthChecks, containerhostHealthResults } from '../../db/schema/index.js';
import { type Engine, publishedHost } from './docker.js';
import type { EngineNodeService } from './engine-nodes.js';
import {
  HEALTH_CHECK_DEFAULTS,
  type HealthCheckConfig,
  type HealthCheckInput,
  type HealthResult,
  type SavedHealthCheck,
  type SavedHealthResult,
} from './schemas/health-checks.js';

/** How much of a response body is read for matching. */
const BODY_READ_LIMIT = 1024 * 1024;
export const HEALTH_JOB = 'containerhost.health-checks';
/** How many due checks the background job probes at once. */
const JOB_CONCURRENCY = 4;

function bodyMatches(body: string, expected: string, mode: HealthCheckConfig['bodyMatchMode']): boolean {
  switch (mode) {
    case 'exact':
      return body === expected || body.trim() === expected.trim();
    case 'starts_with':
      return body.startsWith(expected);
    case 'ends_with':
      return body.endsWith(expected) || body.trimEnd().endsWith(expected);
    default:
      return body.includes(expected);
  }
}

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

async function readLimited(response: Response | import('undici').Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    if (size >= BODY_READ_LIMIT) {
      await reader.cancel();
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

function describeFailure(error: unknown, timeoutSeconds: number): string {
  const denial = findEgressDenial(error);
  if (denial) return denial.message;
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current.name === 'TimeoutError' || current.name === 'AbortError')
      return `timed out after ${timeoutSeconds} s`;
    const code = (current as NodeJS.ErrnoException).code;
    if (code === 'ECONNREFUSED') return 'connection refused';
    if (code === 'ECONNRESET') return 'connection reset';
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
      return `timed out after ${timeoutSeconds} s`;
    if (code && !(current.cause instanceof Error)) return `${code}: ${current.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** A result with nothing measured: the check is disabled, or the probe got no answer (offline, and why). */
function unmeasuredResult(status: 'disabled' | 'offline', url: string | null, error?: string): HealthResult {
  return {
    ok: false,
    status,
    httpStatus: null,
    responseMs: null,
    slow: false,
    bodyMatched: null,
    url,
    ...(error === undefined ? {} : { error }),
    checkedAt: new Date(),
  };
}

/** Saved health checks per container name, one-off tests, and the background runner. */
export class HealthCheckService {
  constructor(
    private readonly deps: Deps,
    private readonly engineNodes: EngineNodeService,
  ) {}

  registerJob(): void {
    // Due checks are claimed with SKIP LOCKED, so every gateway instance may run the job.
    this.deps.jobs.register({
      name: HEALTH_JOB,
      intervalMs: 5_000,
      everyInstance: true,
      run: () => this.runDue(),
    });
  }

  async getSaved(nodeId: string, containerName: string): Promise<SavedHealthCheck> {
    await this.engineNodes.row(nodeId);
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
      await this.engineNodes.row(nodeId, tx);
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
      return this.view(row!);
    });
  }

  async remove(actor: AuditActor, nodeId: string, containerName: string) {
    await this.deps.db.transaction(async (tx) => {
      await this.engineNodes.row(nodeId, tx);
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
    await this.engineNodes.row(nodeId);
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
    const { engine } = await this.engineNodes.engine(nodeId);
    const saved = await this.savedRow(nodeId, containerName);
    const config = checkRange({ ...HEALTH_CHECK_DEFAULTS, ...(saved ? configOf(saved) : {}), ...input });
    return this.probe(engine, containerName, config);
  }

  /** Resolves the target URL, then performs one HTTP(S) request with the configured timeout. */
  async probe(engine: Engine, containerName: string, config: HealthCheckConfig): Promise<HealthResult> {
    const container = await engine.call({ containerName }, (docker) =>
      docker.getContainer(containerName).inspect(),
    );
    const nodeHost = publishedHost(engine.endpoint);
    if (!config.enabled) {
      let url: string | null = null;
      try {
        url = this.targetUrl(nodeHost, container, config);
      } catch {
        // A disabled check is reported as disabled even when it has no target yet.
      }
      return unmeasuredResult('disabled', url);
    }
    const url = this.targetUrl(nodeHost, container, config);
    if (!container.State?.Running)
      return unmeasuredResult('offline', url, `container is ${container.State?.Status ?? 'not running'}`);
    const started = performance.now();
    try {
      const response = await this.deps.egress.fetch(url, {
        method: 'GET',
        timeoutMs: config.timeoutSeconds * 1000,
        maxRedirects: 0,
        headers: { 'user-agent': 'infragate-health-check' },
      });
      let body = '';
      if (config.expectedBody === null) await response.body?.cancel();
      else body = await readLimited(response);
      const responseMs = Math.round(performance.now() - started);
      const bodyMatched =
        config.expectedBody === null ? null : bodyMatches(body, config.expectedBody, config.bodyMatchMode);
      const statusOk = response.status >= config.statusMin && response.status <= config.statusMax;
      const ok = statusOk && bodyMatched !== false;
      const slow = responseMs > config.slowThreshold;
      const error = !statusOk
        ? `HTTP ${response.status} is outside ${config.statusMin}-${config.statusMax}`
        : bodyMatched === false
          ? `response body does not match (${config.bodyMatchMode})`
          : undefined;
      return {
        ok,
        status: ok ? (slow ? 'degraded' : 'online') : 'offline',
        httpStatus: response.status,
        responseMs,
        slow,
        bodyMatched,
        url,
        ...(error ? { error } : {}),
        checkedAt: new Date(),
      };
    } catch (error) {
      const responseMs = Math.round(performance.now() - started);
      return {
        ...unmeasuredResult('offline', url, describeFailure(error, config.timeoutSeconds)),
        responseMs,
      };
    }
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
      const { engine } = await this.engineNodes.engine(check.nodeId);
      result = await this.probe(engine, check.containerName, configOf(check));
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
    });
  }

  private targetUrl(
    nodeHost: string,
    container: import('dockerode').ContainerInspectInfo,
    config: HealthCheckConfig,
  ): string {
    const hostFor = (host: string) => (host.includes(':') ? `[${host}]` : host);
    if (config.hostPort !== null)
      return `${config.scheme}://${hostFor(nodeHost)}:${config.hostPort}${config.path}`;
    if (config.containerPort !== null) {
      const ip = Object.values(container.NetworkSettings?.Networks ?? {})
        .map((n) => n.IPAddress)
        .find(Boolean);
      if (!ip)
        throw unprocessable(
          'NO_CONTAINER_ADDRESS',
          'the container has no IP address on any network; give hostPort to probe a published port instead',
        );
      return `${config.scheme}://${hostFor(ip)}:${config.containerPort}${config.path}`;
    }
    const published = Object.entries(container.NetworkSettings?.Ports ?? {})
      .filter(([key]) => key.endsWith('/tcp'))
      .flatMap(([, bindings]) => bindings ?? [])
      .find((binding) => binding.HostPort);
    if (!published)
      throw unprocessable(
        'NO_TARGET_PORT',
        'give hostPort or containerPort: the container publishes no TCP port to probe',
      );
    return `${config.scheme}://${hostFor(nodeHost)}:${published.HostPort}${config.path}`;
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
