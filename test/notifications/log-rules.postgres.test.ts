import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/core/app.js';
import {
  loggingEnvironments,
  notificationChannels,
  notificationConditions,
  notificationRuleChannels,
  notificationRules,
} from '../../src/db/schema/index.js';
import { LOG_RULES_JOB } from '../../src/modules/logging/alert-rules.js';
import { startGatewaysOnOneDatabase } from '../support/gateways-on-postgres.js';

describe('log alert rules with two gateways on one PostgreSQL', () => {
  const apps: App[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it('are evaluated by one gateway only, the holder of the job lease', { timeout: 120_000 }, async () => {
    apps.push(...(await startGatewaysOnOneDatabase(2)));
    const [a, b] = apps as [App, App];
    const [environment] = await a.deps.db
      .insert(loggingEnvironments)
      .values({ name: 'quiet', retentionDays: 1 })
      .returning();
    const [channel] = await a.deps.db
      .insert(notificationChannels)
      .values({ name: 'hook', kind: 'webhook', settings: { url: 'http://127.0.0.1:1/', headerNames: [] } })
      .returning();
    const [rule] = await a.deps.db
      .insert(notificationRules)
      .values({
        name: 'no records',
        event: 'logging.query.threshold',
        logQuery: {
          environmentId: environment!.id,
          query: {},
          threshold: { op: 'below', count: 1, windowMinutes: 5 },
        },
      })
      .returning();
    await a.deps.db.insert(notificationRuleChannels).values({ ruleId: rule!.id, channelId: channel!.id });

    await Promise.all([a.deps.jobs.runNow(LOG_RULES_JOB), b.deps.jobs.runNow(LOG_RULES_JOB)]);
    await Promise.all([a.deps.jobs.runNow(LOG_RULES_JOB), b.deps.jobs.runNow(LOG_RULES_JOB)]);
    const holders = [a, b].filter((app) => app.deps.jobs.holdsLease(LOG_RULES_JOB));
    expect(holders).toHaveLength(1);
    const [condition] = await a.deps.db
      .select()
      .from(notificationConditions)
      .where(eq(notificationConditions.resourceId, rule!.id));
    // Observed by the holder alone: the condition changed once (into `firing`) and no one else wrote it.
    expect(condition).toMatchObject({ state: 'firing', changes: 1 });
  });
});
