import { asc, count, eq, inArray } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import { conflictOnDuplicate } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { invalidField, notFound } from '../../core/errors.js';
import { isUuid } from '../../core/ids.js';
import { fetchPage } from '../../core/pagination.js';
import type { DbOrTx } from '../../db/client.js';
import { inferenceConnections, inferenceRoutes, inferenceRouteTargets } from '../../db/schema/index.js';
import type { ConnectionRow } from './connection-rows.js';
import type {
  ModelRoute,
  ModelRouteChange,
  NewModelRoute,
  NewRouteTarget,
  RouteListQuery,
} from './plane-schemas.js';
import type { ProviderCatalog } from './provider-catalog.js';

type RouteRow = typeof inferenceRoutes.$inferSelect;

/** One place a public model can be served: a connection and the model name its provider knows. */
export interface ResolvedTarget {
  connection: ConnectionRow;
  upstreamModel: string;
  priority: number;
  weight: number;
}

/**
 * Model routes: a public model name served by an ordered list of targets. Without a route,
 * `<connection name>/<upstream model>` names one target directly.
 */
export class ModelRoutes {
  constructor(private readonly deps: Pick<Deps, 'db' | 'audit'> & { catalog: ProviderCatalog }) {}

  async create(actor: AuditActor, input: NewModelRoute): Promise<ModelRoute> {
    return this.deps.db.transaction(async (tx) => {
      await checkConnections(tx, input.targets);
      const [row] = await conflictOnDuplicate(
        tx.insert(inferenceRoutes).values({ model: input.model, createdBy: actor.userId }).returning(),
        'ROUTE_MODEL_TAKEN',
        { model: input.model },
      );
      await writeTargets(tx, row!.id, input.targets);
      await this.deps.audit.record(tx, actor, {
        action: 'inference.route.created',
        targetType: 'inference_route',
        targetId: row!.id,
        metadata: { model: input.model, targets: input.targets },
      });
      return (await this.views(tx, [row!]))[0]!;
    });
  }

  async list(query: RouteListQuery) {
    const { db } = this.deps;
    const page = await fetchPage(
      query,
      ({ limit, offset }) =>
        db.select().from(inferenceRoutes).orderBy(asc(inferenceRoutes.model)).limit(limit).offset(offset),
      db.select({ value: count() }).from(inferenceRoutes),
    );
    return { ...page, data: await this.views(db, page.data) };
  }

  async get(id: string): Promise<ModelRoute> {
    return (await this.views(this.deps.db, [await findRoute(this.deps.db, id)]))[0]!;
  }

  /** Renames a route or replaces its targets (the whole list, in its new order). */
  async update(actor: AuditActor, id: string, change: ModelRouteChange): Promise<ModelRoute> {
    return this.deps.db.transaction(async (tx) => {
      await findRoute(tx, id);
      if (change.targets) await checkConnections(tx, change.targets);
      const [row] = await conflictOnDuplicate(
        tx
          .update(inferenceRoutes)
          .set({ ...(change.model !== undefined ? { model: change.model } : {}), updatedAt: new Date() })
          .where(eq(inferenceRoutes.id, id))
          .returning(),
        'ROUTE_MODEL_TAKEN',
        { model: change.model },
      );
      if (change.targets) {
        await tx.delete(inferenceRouteTargets).where(eq(inferenceRouteTargets.routeId, id));
        await writeTargets(tx, id, change.targets);
      }
      await this.deps.audit.record(tx, actor, {
        action: 'inference.route.updated',
        targetType: 'inference_route',
        targetId: id,
        metadata: { ...change },
      });
      return (await this.views(tx, [row!]))[0]!;
    });
  }

  async remove(actor: AuditActor, id: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const [row] = isUuid(id)
        ? await tx
            .delete(inferenceRoutes)
            .where(eq(inferenceRoutes.id, id))
            .returning({ model: inferenceRoutes.model })
        : [];
      if (!row) throw notFound({ routeId: id });
      await this.deps.audit.record(tx, actor, {
        action: 'inference.route.deleted',
        targetType: 'inference_route',
        targetId: id,
        metadata: { model: row.model },
      });
    });
  }

  /**
   * The targets that serve a public model, in the order to try them: a route's (by priority, equal
   * priorities in an order drawn by weight), else the one `<connection name>/<upstream model>` names.
   * An empty list: no such model.
   */
  async targetsFor(model: string): Promise<ResolvedTarget[]> {
    const { db } = this.deps;
    const rows = await db
      .select({ target: inferenceRouteTargets, connection: inferenceConnections })
      .from(inferenceRouteTargets)
      .innerJoin(inferenceRoutes, eq(inferenceRoutes.id, inferenceRouteTargets.routeId))
      .innerJoin(inferenceConnections, eq(inferenceConnections.id, inferenceRouteTargets.connectionId))
      .where(eq(inferenceRoutes.model, model))
      .orderBy(asc(inferenceRouteTargets.priority), asc(inferenceRouteTargets.position));
    if (rows.length > 0)
      return weightedOrder(
        rows.map(({ target, connection }) => ({
          connection,
          upstreamModel: target.upstreamModel,
          priority: target.priority,
          weight: target.weight,
        })),
      );
    const slash = model.indexOf('/');
    if (slash <= 0 || slash === model.length - 1) return [];
    const [connection] = await db
      .select()
      .from(inferenceConnections)
      .where(eq(inferenceConnections.name, model.slice(0, slash)));
    return connection ? [{ connection, upstreamModel: model.slice(slash + 1), priority: 0, weight: 1 }] : [];
  }

  /** Every public model name a route gives (the key's filter is applied by the caller). */
  async routeModels(): Promise<{ model: string; createdAt: Date }[]> {
    return this.deps.db
      .select({ model: inferenceRoutes.model, createdAt: inferenceRoutes.createdAt })
      .from(inferenceRoutes)
      .orderBy(asc(inferenceRoutes.model));
  }

  private async views(db: DbOrTx, routes: RouteRow[]): Promise<ModelRoute[]> {
    if (routes.length === 0) return [];
    const targets = await db
      .select({ target: inferenceRouteTargets, connection: inferenceConnections })
      .from(inferenceRouteTargets)
      .innerJoin(inferenceConnections, eq(inferenceConnections.id, inferenceRouteTargets.connectionId))
      .where(
        inArray(
          inferenceRouteTargets.routeId,
          routes.map((route) => route.id),
        ),
      )
      .orderBy(asc(inferenceRouteTargets.position));
    return routes.map((route) => ({
      id: route.id,
      model: route.model,
      targets: targets
        .filter(({ target }) => target.routeId === route.id)
        .map(({ target, connection }) => ({
          connectionId: connection.id,
          connectionName: connection.name,
          wireProtocol: this.deps.catalog.find(connection.providerId)?.wireProtocol ?? null,
          upstreamModel: target.upstreamModel,
          priority: target.priority,
          weight: target.weight,
        })),
      createdAt: route.createdAt,
      updatedAt: route.updatedAt,
    }));
  }
}

async function findRoute(db: DbOrTx, id: string): Promise<RouteRow> {
  const [row] = isUuid(id) ? await db.select().from(inferenceRoutes).where(eq(inferenceRoutes.id, id)) : [];
  if (!row) throw notFound({ routeId: id });
  return row;
}

/** Every target names an existing connection (400 on the first that does not). */
async function checkConnections(db: DbOrTx, targets: NewRouteTarget[]): Promise<void> {
  const ids = [...new Set(targets.map((target) => target.connectionId))];
  const found = await db
    .select({ id: inferenceConnections.id })
    .from(inferenceConnections)
    .where(inArray(inferenceConnections.id, ids));
  const known = new Set(found.map((row) => row.id));
  const missing = targets.findIndex((target) => !known.has(target.connectionId));
  if (missing >= 0) throw invalidField(['targets', missing, 'connectionId'], 'no such connection');
}

async function writeTargets(db: DbOrTx, routeId: string, targets: NewRouteTarget[]): Promise<void> {
  await db.insert(inferenceRouteTargets).values(
    targets.map((target, position) => ({
      routeId,
      position,
      connectionId: target.connectionId,
      upstreamModel: target.upstreamModel,
      priority: target.priority ?? 0,
      weight: target.weight ?? 1,
    })),
  );
}

/**
 * Targets sorted by priority; within one priority, each next target is drawn with a chance
 * proportional to its weight, so the first try spreads by weight and the rest remain as failover.
 */
export function weightedOrder<T extends { priority: number; weight: number }>(
  targets: T[],
  random = Math.random,
): T[] {
  const ordered: T[] = [];
  let index = 0;
  while (index < targets.length) {
    const priority = targets[index]!.priority;
    const group: T[] = [];
    while (index < targets.length && targets[index]!.priority === priority) group.push(targets[index++]!);
    while (group.length > 0) {
      const total = group.reduce((sum, target) => sum + target.weight, 0);
      const draw = random() * total;
      let reached = group[0]!.weight;
      let chosen = 0;
      while (chosen < group.length - 1 && reached <= draw) reached += group[++chosen]!.weight;
      ordered.push(...group.splice(chosen, 1));
    }
  }
  return ordered;
}
