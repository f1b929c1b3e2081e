import { and, asc, count, eq, inArray, type SQL } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import { conflictOnDuplicate } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { notFound, type ValidationIssue, validationError } from '../../core/errors.js';
import { trimmedName } from '../../core/names.js';
import { DEFAULT_WITHIN_DAYS, NOTIFICATION_EVENT_SPECS } from '../../core/notification-events.js';
import { fetchPage } from '../../core/pagination.js';
import { containsText } from '../../core/text-filters.js';
import type { DbOrTx, Tx } from '../../db/client.js';
import {
  type LogQueryRule,
  loggingEnvironments,
  loggingSavedSearches,
  type NotificationEventKind,
  type NotificationLabels,
  notificationChannels,
  notificationRuleChannels,
  notificationRules,
} from '../../db/schema/index.js';
import { checkSavedQuery } from '../logging/saved-query.js';
import type { Rule, RuleCreate, RuleListQuery, RuleUpdate } from './schemas.js';

type RuleRow = typeof notificationRules.$inferSelect;

/** What a rule is, once a create or an update is applied. */
interface RuleShape {
  event: NotificationEventKind;
  filters: NotificationLabels;
  withinDays: number[] | null;
  renotifyMinutes: number | null;
  logQuery: LogQueryRule | null;
}

const LOG_QUERY_EVENT = 'logging.query.threshold';

/** Filters, thresholds and reminders must make sense for the rule's event. */
function checkShape(shape: RuleShape): void {
  const spec = NOTIFICATION_EVENT_SPECS[shape.event];
  const issues: ValidationIssue[] = [];
  for (const key of Object.keys(shape.filters) as (keyof NotificationLabels)[]) {
    if (!spec.filters.includes(key)) {
      const allowed = spec.filters.length > 0 ? `it takes ${spec.filters.join(', ')}` : 'it takes no filter';
      issues.push({ path: ['filters', key], message: `does not apply to ${shape.event}: ${allowed}` });
    }
  }
  if (shape.withinDays !== null && spec.mode !== 'deadline')
    issues.push({ path: ['withinDays'], message: `applies to expiry events only, not to ${shape.event}` });
  if (shape.renotifyMinutes !== null && spec.mode !== 'condition')
    issues.push({
      path: ['renotifyMinutes'],
      message: `applies to condition events only, not to ${shape.event}`,
    });
  if (shape.event === LOG_QUERY_EVENT) {
    const { logQuery } = shape;
    if (!logQuery) issues.push({ path: ['logQuery'], message: `is required for ${LOG_QUERY_EVENT}` });
    else if ((logQuery.query === undefined) === (logQuery.savedSearchId === undefined))
      issues.push({ path: ['logQuery'], message: 'takes exactly one of `query` and `savedSearchId`' });
    else if (logQuery.query) checkSavedQuery(logQuery.query, ['logQuery', 'query']);
  } else if (shape.logQuery !== null)
    issues.push({ path: ['logQuery'], message: `applies to ${LOG_QUERY_EVENT} only, not to ${shape.event}` });
  if (issues.length > 0) throw validationError(issues);
}

/**
 * The environment (and saved search) a log rule counts must exist. Read from the logging tables in
 * the rule's transaction; the evaluator treats one deleted later as nothing to count.
 */
async function checkLogTarget(tx: Tx, logQuery: LogQueryRule | null): Promise<void> {
  if (!logQuery) return;
  const [environment] = await tx
    .select({ id: loggingEnvironments.id })
    .from(loggingEnvironments)
    .where(eq(loggingEnvironments.id, logQuery.environmentId));
  if (!environment) throw notFound({ environmentId: logQuery.environmentId });
  if (logQuery.savedSearchId === undefined) return;
  const [saved] = await tx
    .select({ id: loggingSavedSearches.id })
    .from(loggingSavedSearches)
    .where(
      and(
        eq(loggingSavedSearches.id, logQuery.savedSearchId),
        eq(loggingSavedSearches.environmentId, logQuery.environmentId),
      ),
    );
  if (!saved) throw notFound({ savedSearchId: logQuery.savedSearchId });
}

function toRuleView(row: RuleRow, channelIds: string[]): Rule {
  const deadline = NOTIFICATION_EVENT_SPECS[row.event].mode === 'deadline';
  return {
    id: row.id,
    name: row.name,
    event: row.event,
    enabled: row.enabled,
    channelIds,
    filters: row.filters,
    withinDays: deadline ? [...(row.withinDays ?? DEFAULT_WITHIN_DAYS)].sort((a, b) => b - a) : null,
    renotifyMinutes: row.renotifyMinutes,
    logQuery: row.logQuery,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Alert rules: which event goes to which channels, narrowed by filters. */
export class RuleService {
  constructor(private readonly deps: Pick<Deps, 'db' | 'audit'>) {}

  async list(query: RuleListQuery) {
    const conditions: SQL[] = [];
    if (query.event) conditions.push(eq(notificationRules.event, query.event));
    if (query.q) conditions.push(containsText(notificationRules.name, query.q));
    const where = and(...conditions);
    const page = await fetchPage(
      query,
      ({ limit, offset }) =>
        this.deps.db
          .select()
          .from(notificationRules)
          .where(where)
          .orderBy(asc(notificationRules.name))
          .limit(limit)
          .offset(offset),
      this.deps.db.select({ value: count() }).from(notificationRules).where(where),
    );
    const channels = await this.channelsOf(
      this.deps.db,
      page.data.map((row) => row.id),
    );
    return { ...page, data: page.data.map((row) => toRuleView(row, channels.get(row.id) ?? [])) };
  }

  async get(id: string, db: DbOrTx = this.deps.db): Promise<Rule> {
    const row = await this.findRow(db, id);
    return toRuleView(row, (await this.channelsOf(db, [id])).get(id) ?? []);
  }

  async create(actor: AuditActor, input: RuleCreate): Promise<Rule> {
    const name = trimmedName(input.name);
    const shape: RuleShape = {
      event: input.event,
      filters: input.filters ?? {},
      withinDays: input.withinDays ?? null,
      renotifyMinutes: input.renotifyMinutes ?? null,
      logQuery: input.logQuery ?? null,
    };
    checkShape(shape);
    return this.deps.db.transaction(async (tx) => {
      await this.lockChannels(tx, input.channelIds);
      await checkLogTarget(tx, shape.logQuery);
      const [row] = (await conflictOnDuplicate(
        tx
          .insert(notificationRules)
          .values({ name, enabled: input.enabled ?? true, ...shape })
          .returning(),
        'RULE_NAME_TAKEN',
        { name },
      )) as [RuleRow];
      await tx
        .insert(notificationRuleChannels)
        .values(input.channelIds.map((channelId) => ({ ruleId: row.id, channelId })));
      await this.deps.audit.record(tx, actor, {
        action: 'notifications.rule.created',
        targetType: 'notification_rule',
        targetId: row.id,
        metadata: { name, enabled: row.enabled, channelIds: input.channelIds, ...shape },
      });
      return this.get(row.id, tx);
    });
  }

  async update(actor: AuditActor, id: string, input: RuleUpdate): Promise<Rule> {
    const name = input.name === undefined ? undefined : trimmedName(input.name);
    return this.deps.db.transaction(async (tx) => {
      const current = await this.findRow(tx, id, true);
      const shape: RuleShape = {
        event: input.event ?? current.event,
        filters: input.filters === undefined ? current.filters : (input.filters ?? {}),
        withinDays: input.withinDays === undefined ? current.withinDays : input.withinDays,
        renotifyMinutes:
          input.renotifyMinutes === undefined ? current.renotifyMinutes : input.renotifyMinutes,
        logQuery: input.logQuery === undefined ? current.logQuery : input.logQuery,
      };
      checkShape(shape);
      if (input.logQuery) await checkLogTarget(tx, shape.logQuery);
      if (input.channelIds) {
        await this.lockChannels(tx, input.channelIds);
        await tx.delete(notificationRuleChannels).where(eq(notificationRuleChannels.ruleId, id));
        await tx
          .insert(notificationRuleChannels)
          .values(input.channelIds.map((channelId) => ({ ruleId: id, channelId })));
      }
      await conflictOnDuplicate(
        tx
          .update(notificationRules)
          .set({
            ...(name !== undefined ? { name } : {}),
            ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
            ...shape,
            updatedAt: new Date(),
          })
          .where(eq(notificationRules.id, id)),
        'RULE_NAME_TAKEN',
        { name },
      );
      const rule = await this.get(id, tx);
      await this.deps.audit.record(tx, actor, {
        action: 'notifications.rule.updated',
        targetType: 'notification_rule',
        targetId: id,
        metadata: {
          name: rule.name,
          changed: Object.keys(input).sort(),
          enabled: rule.enabled,
          channelIds: rule.channelIds,
          ...shape,
        },
      });
      return rule;
    });
  }

  async remove(actor: AuditActor, id: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .delete(notificationRules)
        .where(eq(notificationRules.id, id))
        .returning({ name: notificationRules.name, event: notificationRules.event });
      if (!row) throw notFound({ ruleId: id });
      await this.deps.audit.record(tx, actor, {
        action: 'notifications.rule.deleted',
        targetType: 'notification_rule',
        targetId: id,
        metadata: { name: row.name, event: row.event },
      });
    });
  }

  private async findRow(db: DbOrTx, id: string, forUpdate = false): Promise<RuleRow> {
    const query = db.select().from(notificationRules).where(eq(notificationRules.id, id));
    const [row] = forUpdate ? await query.for('update') : await query;
    if (!row) throw notFound({ ruleId: id });
    return row;
  }

  /**
   * The channels must exist, and stay until this transaction ends: a share lock makes a concurrent
   * channel delete wait and then see this rule (409) instead of breaking the reference.
   */
  private async lockChannels(tx: Tx, ids: string[]): Promise<void> {
    const found = await tx
      .select({ id: notificationChannels.id })
      .from(notificationChannels)
      .where(inArray(notificationChannels.id, ids))
      .for('share');
    const present = new Set(found.map((row) => row.id));
    const missing = ids.find((id) => !present.has(id));
    if (missing) throw notFound({ channelId: missing });
  }

  private async channelsOf(db: DbOrTx, ruleIds: string[]): Promise<Map<string, string[]>> {
    const result = new Map<string, string[]>();
    if (ruleIds.length === 0) return result;
    const rows = await db
      .select({ ruleId: notificationRuleChannels.ruleId, channelId: notificationRuleChannels.channelId })
      .from(notificationRuleChannels)
      .innerJoin(notificationChannels, eq(notificationChannels.id, notificationRuleChannels.channelId))
      .where(inArray(notificationRuleChannels.ruleId, ruleIds))
      .orderBy(asc(notificationChannels.name));
    for (const row of rows) result.set(row.ruleId, [...(result.get(row.ruleId) ?? []), row.channelId]);
    return result;
  }
}
