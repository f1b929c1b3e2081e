import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationDeliveries } from '../../src/db/schema/index.js';
import { NotificationOutbox } from '../../src/modules/notifications/outbox.js';
import { logStore } from '../logging/log-store.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import type { TestGateway } from '../support/gateway.js';
import { createRule, createWebhookChannel, runJob, startNotifyGateway } from './helpers.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
let gateway: TestGateway;
let store: ReturnType<typeof logStore>;
let channelId: string;

beforeAll(async () => {
  gateway = await startNotifyGateway();
  store = logStore(gateway);
  channelId = await createWebhookChannel(gateway, 'http://127.0.0.1:1/hook');
});
afterAll(() => gateway.close());

/** An environment with an ingest token, and a way to add records of the last minute. */
async function environment() {
  const id = (await store.environment()).id;
  const token = await store.token(id);
  const add = async (level: string, count = 1) => {
    const timestamp = new Date(Date.now() - 30_000).toISOString();
    const result = await store.ingest(
      token,
      Array.from({ length: count }, () => ({ timestamp, level, message: 'x' })),
    );
    expect(result.status, result.text).toBe(200);
  };
  return { id, add };
}

const logRule = (
  environmentId: string,
  threshold: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) =>
  createRule(gateway, 'logging.query.threshold', [channelId], {
    logQuery: { environmentId, query: { levels: ['error'] }, threshold, ...extra },
  });

const deliveriesOf = async (ruleId: string) =>
  (
    await gateway.deps.db
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.ruleId, ruleId))
      .orderBy(asc(notificationDeliveries.createdAt))
  ).map((delivery) => delivery.payload);

describe('logging.query.threshold rules', () => {
  it('fire once when the count goes above the threshold, with the count, the window and a link', async () => {
    const logs = await environment();
    const ruleId = await logRule(logs.id, { op: 'above', count: 2, windowMinutes: 5 });
    await logs.add('error', 2);
    await runJob(gateway, 'logging.alert-rules');
    expect(await deliveriesOf(ruleId)).toEqual([]);
    await logs.add('error');
    await logs.add('info', 5);
    await runJob(gateway, 'logging.alert-rules');
    await runJob(gateway, 'logging.alert-rules');
    const [fired, ...more] = await deliveriesOf(ruleId);
    expect(more).toEqual([]);
    expect(fired).toMatchObject({
      kind: 'logging.query.threshold',
      state: 'firing',
      recovered: false,
      rule: { id: ruleId },
      details: { count: 3, windowMinutes: 5, threshold: 'above 2', environmentId: logs.id },
    });
    expect(fired!.details.search).toMatch(
      new RegExp(`^/api/logging/environments/${logs.id}/records\\?from=.*&level=error$`),
    );
    const search = await gateway.call('GET', fired!.details.search as string);
    expect(search.body.data).toHaveLength(3);
  });

  it('remind while the condition holds, with the latest count, and only for their own rule', async () => {
    const logs = await environment();
    const ruleId = await logRule(logs.id, { op: 'above', count: 0, windowMinutes: 5 }, {});
    await gateway.call('PATCH', `/api/notifications/rules/${ruleId}`, { body: { renotifyMinutes: 1 } });
    const otherRule = await logRule(logs.id, { op: 'above', count: 100, windowMinutes: 5 });
    await gateway.call('PATCH', `/api/notifications/rules/${otherRule}`, { body: { renotifyMinutes: 1 } });
    await logs.add('error');
    await runJob(gateway, 'logging.alert-rules');
    await logs.add('error');
    await runJob(gateway, 'logging.alert-rules');
    const outbox = new NotificationOutbox({ maxAttempts: 1 });
    await outbox.remind(gateway.deps.db, new Date(Date.now() + 61_000));
    const [fired, reminder] = await deliveriesOf(ruleId);
    expect(fired).toMatchObject({ reminder: 0, details: { count: 1 } });
    expect(reminder).toMatchObject({ reminder: 1, state: 'firing', details: { count: 2 } });
    expect(await deliveriesOf(otherRule)).toEqual([]);
  });

  it('resolve when the condition stops holding', async () => {
    const logs = await environment();
    const ruleId = await logRule(logs.id, { op: 'below', count: 1, windowMinutes: 10 });
    await runJob(gateway, 'logging.alert-rules');
    await logs.add('error');
    await runJob(gateway, 'logging.alert-rules');
    const payloads = await deliveriesOf(ruleId);
    expect(payloads.map((p) => [p.state, p.recovered, p.details.count])).toEqual([
      ['firing', false, 0],
      ['ok', true, 1],
    ]);
  });

  it('count the query of a saved search', async () => {
    const logs = await environment();
    const saved = await gateway.call('POST', `/api/logging/environments/${logs.id}/saved-searches`, {
      body: { name: 'warnings', query: { levels: ['warn'] } },
    });
    const ruleId = await createRule(gateway, 'logging.query.threshold', [channelId], {
      logQuery: {
        environmentId: logs.id,
        savedSearchId: saved.body.data.id,
        threshold: { op: 'above', count: 0, windowMinutes: 5 },
      },
    });
    await logs.add('error', 3);
    await logs.add('warn');
    await runJob(gateway, 'logging.alert-rules');
    expect((await deliveriesOf(ruleId)).map((p) => p.details.count)).toEqual([1]);
  });

  it('are refused without a log query, with two, or with one that names nothing', async () => {
    const logs = await environment();
    const post = (body: Record<string, unknown>) =>
      gateway.call('POST', '/api/notifications/rules', {
        body: {
          name: `r-${Math.random()}`,
          event: 'logging.query.threshold',
          channelIds: [channelId],
          ...body,
        },
      });
    const threshold = { op: 'above', count: 1, windowMinutes: 5 };
    expectValidationError(await post({}), ['logQuery']);
    expectValidationError(
      await post({ logQuery: { environmentId: logs.id, query: {}, savedSearchId: UNKNOWN, threshold } }),
      ['logQuery'],
    );
    expectValidationError(await post({ logQuery: { environmentId: logs.id, threshold } }), ['logQuery']);
    expectValidationError(
      await post({ logQuery: { environmentId: logs.id, query: { mode: 'regex' }, threshold } }),
      ['logQuery', 'query', 'mode'],
    );
    expectError(
      await post({
        logQuery: { environmentId: logs.id, query: {}, threshold: { ...threshold, windowMinutes: 0 } },
      }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(await post({ logQuery: { environmentId: UNKNOWN, query: {}, threshold } }), 404, 'NOT_FOUND');
    expectError(
      await post({ logQuery: { environmentId: logs.id, savedSearchId: UNKNOWN, threshold } }),
      404,
      'NOT_FOUND',
    );
    const other = await gateway.call('POST', '/api/notifications/rules', {
      body: {
        name: 'x',
        event: 'audit.chain.broken',
        channelIds: [channelId],
        logQuery: { environmentId: logs.id, query: {}, threshold },
      },
    });
    expectValidationError(other, ['logQuery']);
  });

  it('answer their log query with the rule', async () => {
    const logs = await environment();
    const ruleId = await logRule(logs.id, { op: 'below', count: 5, windowMinutes: 15 });
    const rule = await gateway.call('GET', `/api/notifications/rules/${ruleId}`);
    expect(rule.body.data.logQuery).toEqual({
      environmentId: logs.id,
      query: { levels: ['error'] },
      threshold: { op: 'below', count: 5, windowMinutes: 15 },
    });
  });
});
