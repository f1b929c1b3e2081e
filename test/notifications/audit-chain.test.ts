import crypto from 'node:crypto';
import { desc, eq, gte, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotifyConfig } from '../../src/config.js';
import { auditEvents } from '../../src/db/schema/index.js';
import { makeEvents, rewriteFrom, sequenced } from '../audit/helpers.js';
import { type NotificationReceiver, startNotificationReceiver } from '../services/notification-receiver.js';
import { eventually } from '../support/eventually.js';
import { openTestDatabase, type TestGateway } from '../support/gateway.js';
import { createRule, createWebhookChannel, deliveriesSettle, runJob, startNotifyGateway } from './helpers.js';

let gateway: TestGateway;
let receiver: NotificationReceiver;
beforeAll(async () => {
  gateway = await startNotifyGateway();
  receiver = await startNotificationReceiver();
});
afterAll(async () => {
  await gateway?.close();
  await receiver?.stop();
});

const verifyChain = (target: TestGateway) => runJob(target, 'notifications.audit-chain');

/**
 * A rule for `audit.chain.broken` to a webhook: what it received, in order, and its only message once
 * a gateway's worker delivered it.
 */
async function watchChain(target: TestGateway) {
  const channelId = await createWebhookChannel(target, receiver.webhookUrl);
  const ruleId = await createRule(target, 'audit.chain.broken', [channelId]);
  const received = () => receiver.accepted.filter((request) => request.json?.rule?.id === ruleId);
  return {
    ruleId,
    received,
    async onlyMessage(deliveredBy: TestGateway) {
      await deliveriesSettle(deliveredBy, `ruleId=${ruleId}`, 'delivered');
      const [message] = await eventually(
        () => (received().length === 1 ? received() : undefined),
        'one message',
      );
      return message!.json;
    },
  };
}

/** Runs `test` on a gateway of its own (its own database), closed afterwards. */
async function withOwnGateway(notify: Partial<NotifyConfig>, test: (target: TestGateway) => Promise<void>) {
  const target = await startNotifyGateway(notify);
  try {
    await test(target);
  } finally {
    await target.close();
  }
}

/** Changes one sequenced event's content behind the gateway's back; answers how to put it back. */
async function tamperWith(target: TestGateway, seq: number): Promise<() => Promise<void>> {
  const { db } = target.deps;
  const [event] = await db.select().from(auditEvents).where(eq(auditEvents.seq, seq));
  await db.update(auditEvents).set({ action: 'tampered.with' }).where(eq(auditEvents.seq, seq));
  return async () => {
    await db.update(auditEvents).set({ action: event!.action }).where(eq(auditEvents.seq, seq));
  };
}

async function headSeq(target: TestGateway): Promise<number> {
  const [head] = await target.deps.db
    .select({ seq: auditEvents.seq })
    .from(auditEvents)
    .where(isNotNull(auditEvents.seq))
    .orderBy(desc(auditEvents.seq))
    .limit(1);
  return head!.seq!;
}

describe('the audit chain verification job', () => {
  it('notifies a change to an event recorded since its last run once, and the recovery once it is undone', async () => {
    const { ruleId, received } = await watchChain(gateway);
    // The first run must find a head to continue from: what watchChain recorded, once sequenced.
    await sequenced(gateway);
    await verifyChain(gateway);
    await makeEvents(gateway, 1, 'chain');
    await sequenced(gateway);
    const changed = await headSeq(gateway);
    const undo = await tamperWith(gateway, changed);
    await verifyChain(gateway);
    await verifyChain(gateway);
    await undo();
    await verifyChain(gateway);

    await deliveriesSettle(gateway, `ruleId=${ruleId}`, 'delivered', 2);
    const [broken, recovered] = await eventually(
      () => (received().length === 2 ? received() : undefined),
      'two notifications',
    );
    expect(broken!.json).toMatchObject({
      title: 'The audit trail’s hash chain is broken',
      details: {
        brokenAtSeq: changed,
        reason: 'HASH_MISMATCH',
        verified: expect.stringMatching(/^events after \d+$/),
      },
    });
    expect(recovered!.json).toMatchObject({
      title: 'The audit trail verifies again',
      details: { verified: 'whole chain' },
    });
  });

  it('notifies at once a rewrite that re-hashed the chain from an older event: the head it verified last changed', async () => {
    const { onlyMessage } = await watchChain(gateway);
    await sequenced(gateway);
    await verifyChain(gateway);
    const head = await headSeq(gateway);
    await rewriteFrom(gateway, 2);
    await verifyChain(gateway);

    expect((await onlyMessage(gateway)).details).toMatchObject({
      brokenAtSeq: head,
      reason: 'CHECKPOINT_MISMATCH',
    });
  });
});

describe('the audit chain verification job between its walks of the whole chain', () => {
  it('notifies at once events cut from the end of the chain down to before the head it verified last', () =>
    withOwnGateway({}, async (separate) => {
      const { onlyMessage } = await watchChain(separate);
      await makeEvents(separate, 2, 'cut');
      await sequenced(separate);
      await verifyChain(separate);
      const head = await headSeq(separate);
      await separate.deps.db.delete(auditEvents).where(gte(auditEvents.seq, head - 1));
      await verifyChain(separate);

      expect((await onlyMessage(separate)).details).toMatchObject({
        brokenAtSeq: head,
        reason: 'CHECKPOINT_MISSING',
        verified: `events after ${head}`,
      });
    }));
});

describe('the audit chain verification job with INFRAGATE_NOTIFY_CHAIN_FULL_WALK_SECONDS=0', () => {
  it('walks the whole chain every run, finding a change to an event an earlier run verified', () =>
    withOwnGateway({ chainFullWalkSeconds: 0 }, async (separate) => {
      const { onlyMessage } = await watchChain(separate);
      await makeEvents(separate, 3, 'every-run');
      await sequenced(separate);
      await verifyChain(separate);
      await tamperWith(separate, 2);
      await verifyChain(separate);

      expect((await onlyMessage(separate)).details).toMatchObject({
        brokenAtSeq: 2,
        reason: 'HASH_MISMATCH',
        verified: 'whole chain',
      });
    }));
});

describe('the audit chain verification job of a restarted gateway', () => {
  it('walks the whole chain on its first run, finding a change to an older event the runs before the restart did not see', {
    timeout: 120_000,
  }, async () => {
    const database = await openTestDatabase();
    const restartOf = { database, masterKey: crypto.randomBytes(32) };
    try {
      const before = await startNotifyGateway({}, {}, { restartOf });
      const { ruleId, onlyMessage } = await watchChain(before);
      // Event 2 lies well before the head the first run verifies.
      await makeEvents(before, 3, 'older');
      await sequenced(before);
      await verifyChain(before);
      await tamperWith(before, 2);
      // Between walks of the whole chain, a run checks only the events recorded since the last one:
      // it does not see this change; the API's verification, which walks the whole chain, does.
      await verifyChain(before);
      expect((await before.call('GET', `/api/notifications/deliveries?ruleId=${ruleId}`)).body.data).toEqual(
        [],
      );
      expect((await before.call('GET', '/api/audit/verify')).body.data).toMatchObject({
        valid: false,
        firstBrokenLink: { seq: 2, reason: 'HASH_MISMATCH' },
      });
      await before.close();

      const after = await startNotifyGateway({}, {}, { restartOf });
      try {
        await verifyChain(after);
        expect((await onlyMessage(after)).details).toMatchObject({
          brokenAtSeq: 2,
          reason: 'HASH_MISMATCH',
          verified: 'whole chain',
        });
      } finally {
        await after.close();
      }
    } finally {
      await database.close();
    }
  });
});
