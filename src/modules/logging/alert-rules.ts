import { and, eq } from 'drizzle-orm';
import type { Deps } from '../../core/deps.js';
import {
  type LogQueryRule,
  loggingEnvironments,
  loggingSavedSearches,
  notificationRules,
} from '../../db/schema/index.js';
import type { RecordSearch } from './record-search.js';
import { filterOfQuery, searchParamsOf } from './saved-query.js';

export const LOG_RULES_JOB = 'logging.alert-rules';
const MINUTE_MS = 60_000;

/** What one evaluation of a rule saw. */
export interface RuleObservation {
  ruleId: string;
  count: number;
  holds: boolean;
}

/**
 * Evaluates the `logging.query.threshold` alert rules every INFRAGATE_LOG_RULES_INTERVAL_SECONDS in
 * one gateway at a time (the job's lease): each enabled rule counts its query's records in its
 * window and reports the condition (`firing` or `ok`) to the outbox, which notifies when it starts
 * to hold and when it stops, and whose sweep reminds while it holds (the rule's `renotifyMinutes`).
 * A rule whose environment or saved search is gone has nothing to count and is skipped.
 */
export class LogAlertRules {
  constructor(
    private readonly deps: Pick<Deps, 'db' | 'config' | 'jobs' | 'notifications' | 'log'> & {
      search: Pick<RecordSearch, 'count' | 'bounded'>;
    },
  ) {}

  register(): void {
    this.deps.jobs.register({
      name: LOG_RULES_JOB,
      intervalMs: this.deps.config.logSearch.rulesIntervalSeconds * 1000,
      run: async () => {
        await this.evaluate();
      },
    });
  }

  async evaluate(now = new Date()): Promise<RuleObservation[]> {
    const rules = await this.deps.db
      .select({
        id: notificationRules.id,
        name: notificationRules.name,
        logQuery: notificationRules.logQuery,
      })
      .from(notificationRules)
      .where(
        and(eq(notificationRules.event, 'logging.query.threshold'), eq(notificationRules.enabled, true)),
      );
    const observed: RuleObservation[] = [];
    for (const rule of rules) {
      if (!rule.logQuery) continue;
      try {
        const observation = await this.evaluateOne({ ...rule, logQuery: rule.logQuery }, now);
        if (observation) observed.push(observation);
      } catch (error) {
        // One rule's failure (a match that timed out …) leaves the others to run.
        this.deps.log.warn({ err: error, ruleId: rule.id }, 'log alert rule evaluation failed');
      }
    }
    return observed;
  }

  private async evaluateOne(
    rule: { id: string; name: string; logQuery: LogQueryRule },
    now: Date,
  ): Promise<RuleObservation | null> {
    const { environmentId, threshold } = rule.logQuery;
    const query = await this.queryOf(rule.logQuery);
    if (!query) return null;
    const range = { from: new Date(now.getTime() - threshold.windowMinutes * MINUTE_MS), to: now };
    const filter = filterOfQuery(query, range);
    const count = await this.deps.search.bounded(filter, (db) =>
      this.deps.search.count(environmentId, filter, db),
    );
    const holds = threshold.op === 'above' ? count > threshold.count : count < threshold.count;
    const searchParams = searchParamsOf(query, range).toString();
    await this.deps.db.transaction((tx) =>
      this.deps.notifications.emit(tx, {
        kind: 'logging.query.threshold',
        resource: { type: 'log_query', id: rule.id, name: rule.name },
        rule: { id: rule.id, name: rule.name },
        state: holds ? 'firing' : 'ok',
        occurredAt: now,
        details: {
          count,
          windowMinutes: threshold.windowMinutes,
          threshold: `${threshold.op} ${threshold.count}`,
          environmentId,
          searchParams,
          search: `/api/logging/environments/${environmentId}/records?${searchParams}`,
        },
      }),
    );
    return { ruleId: rule.id, count, holds };
  }

  /** The rule's query, its saved search's, or null when the environment or the saved search is gone. */
  private async queryOf(logQuery: LogQueryRule) {
    if (logQuery.savedSearchId === undefined) {
      const [environment] = await this.deps.db
        .select({ id: loggingEnvironments.id })
        .from(loggingEnvironments)
        .where(eq(loggingEnvironments.id, logQuery.environmentId));
      return environment ? (logQuery.query ?? {}) : null;
    }
    const [saved] = await this.deps.db
      .select({ query: loggingSavedSearches.query })
      .from(loggingSavedSearches)
      .where(
        and(
          eq(loggingSavedSearches.id, logQuery.savedSearchId),
          eq(loggingSavedSearches.environmentId, logQuery.environmentId),
        ),
      );
    return saved?.query ?? null;
  }
}
