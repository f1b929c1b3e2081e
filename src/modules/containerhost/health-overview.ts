import { and, asc, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Actor } from '../../core/actor.js';
import { visibleResources } from '../../core/auth/visible-resources.js';
import type { Deps } from '../../core/deps.js';
import { fetchPage, type Page } from '../../core/pagination.js';
import {
  containerhostHealthChecks as checks,
  containerhostNodes as nodes,
  containerhostHealthResults as results,
} from '../../db/schema/index.js';
import type { HealthOverviewItem, HealthOverviewQuery, OverviewStatus } from './schemas/health-checks.js';

/** Every saved health check across nodes with its latest result: the overview of what is up. */
export class HealthOverviewService {
  constructor(private readonly deps: Pick<Deps, 'db'>) {}

  /** The checks of the nodes the actor may see (all with an area-wide scope). */
  async list(actor: Actor, query: HealthOverviewQuery): Promise<Page<HealthOverviewItem>> {
    const { db } = this.deps;
    const latest = db
      .select({
        status: results.status,
        httpStatus: results.httpStatus,
        responseMs: results.responseMs,
        error: results.error,
        url: results.url,
        checkedAt: results.checkedAt,
      })
      .from(results)
      .where(eq(results.checkId, checks.id))
      .orderBy(desc(results.checkedAt), desc(results.id))
      .limit(1)
      .as('latest');
    const status = sql<OverviewStatus>`case when ${checks.enabled} = false then 'disabled' else coalesce(${latest.status}, 'unknown') end`;
    const filters: SQL[] = [];
    const visible = visibleResources(checks.nodeId, actor, 'containerhost:view');
    if (visible) filters.push(visible);
    if (query.nodeId) filters.push(eq(checks.nodeId, query.nodeId));
    if (query.status) filters.push(sql`${status} = ${query.status}`);
    const where = and(...filters);
    return fetchPage(
      query,
      ({ limit, offset }) =>
        db
          .select({
            id: checks.id,
            nodeId: checks.nodeId,
            nodeName: nodes.name,
            containerName: checks.containerName,
            enabled: checks.enabled,
            status,
            lastCheckedAt: latest.checkedAt,
            httpStatus: latest.httpStatus,
            responseMs: latest.responseMs,
            error: latest.error,
            url: latest.url,
            intervalSeconds: checks.intervalSeconds,
            nextRunAt: checks.nextRunAt,
          })
          .from(checks)
          .innerJoin(nodes, eq(nodes.id, checks.nodeId))
          .leftJoinLateral(latest, sql`true`)
          .where(where)
          .orderBy(asc(nodes.name), asc(checks.containerName))
          .limit(limit)
          .offset(offset),
      db.select({ value: count() }).from(checks).leftJoinLateral(latest, sql`true`).where(where),
    );
  }
}
