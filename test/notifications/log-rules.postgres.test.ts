import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { App } from '../../src/core/app.js';
import { openDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import {
  loggingEnvironments,
  notificationChannels,
  notificationConditions,
  notificationRuleChannels,
  notificationRules,
} from '../../src/db/schema/index.js';
import { LOG_RULES_JOB } from '../../src/modules/logging/alert-rules.js';
import { buildServer } from '../../src/server.js';
import { createDatabase } from '../services/postgres.js';
import { testConfig } from '../support/gateway.js';

describe('log alert rules with two gateways on one PostgreSQL', () => {
  const apps: App[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it('are evaluated by one gateway only, the holder of the job lease', { timeout: 120_000 }, async () => {
    const url = await createDatabase(inject('postgresUrl'));
    const masterKey = crypto.randomBytes(32);
    const migrating = await openDatabase({ url, poolSize: 1 });
    await migrate(migrating.db);
    await migrating.close();
    for (let i = 0; i < 2; i++) {
      const database = await openDatabase({ url, poolSize: 3 });
      const app = await buildServer({ config: testConfig(), database, masterKey, logger: false });
      app.addHook('onClose', async () => database.close());
      await app.ready();
      apps.push(app);
    }
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
