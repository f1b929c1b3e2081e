import { afterAll, describe, expect, it } from 'vitest';
import { SiemExporter } from '../../src/modules/audit/exporter.js';
import { type SiemSink, startSiemSink } from '../services/siem-sink.js';
import { auditEventsMatching } from '../support/audit-events.js';
import { eventually } from '../support/eventually.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { createWebhook, fastSiem, makeEvents, sequenced, WEBHOOK_SECRET } from './helpers.js';

const gateways: TestGateway[] = [];
const sinks: SiemSink[] = [];
afterAll(async () => {
  for (const gateway of gateways) await gateway.close();
  for (const sink of sinks) await sink.stop();
});

/** A gateway whose background jobs were stopped, so nothing sequences its events unless told to. */
async function gatewayWithoutSequencing(): Promise<TestGateway> {
  const gateway = await startTestGateway(fastSiem());
  gateways.push(gateway);
  await gateway.deps.jobs.stop();
  return gateway;
}

describe('audit events not sequenced yet', () => {
  it('are listed as soon as their change committed, with seq and hashes null', async () => {
    const gateway = await gatewayWithoutSequencing();
    await makeEvents(gateway, 1, 'listed');
    const [event] = (await gateway.call('GET', '/api/audit/events')).body.data;
    expect(event).toMatchObject({ action: 'users.group.created', seq: null, prevHash: null, hash: null });
    expect((await gateway.call('GET', `/api/audit/events/${event.id}`)).body.data).toEqual(event);
  });

  it('are counted by verify as the backlog, and the sequenced chain still verifies', async () => {
    const gateway = await gatewayWithoutSequencing();
    await makeEvents(gateway, 2, 'backlog');
    await gateway.deps.sequencer.sequenceBatch();
    await makeEvents(gateway, 3, 'backlog-late');
    const report = (await gateway.call('GET', '/api/audit/verify')).body.data;
    expect(report).toMatchObject({ valid: true, checkedEvents: 2, headSeq: 2, unsequencedEvents: 3 });
  });

  it('are never exported, and are exported once sequenced', async () => {
    const gateway = await gatewayWithoutSequencing();
    const sink = await startSiemSink({ secret: WEBHOOK_SECRET });
    sinks.push(sink);
    await createWebhook(gateway, sink.webhookUrl, { batchSize: 10 });
    await makeEvents(gateway, 3, 'unexported');
    // The export worker run by hand, as its job would: it cuts and sends what it finds.
    const exporter = new SiemExporter(gateway.deps);
    expect(await exporter.batchNewEvents()).toBe(0);
    expect(await exporter.deliverDue()).toBe(0);
    expect(sink.requests).toHaveLength(0);

    expect(await gateway.deps.sequencer.sequenceBatch()).toBe(4); // the destination's creation and 3 groups
    expect(await exporter.batchNewEvents()).toBe(1);
    await exporter.deliverDue();
    expect(sink.webhookEvents).toHaveLength(4);
    expect(sink.webhookEvents.map((event) => event.seq)).toEqual([1, 2, 3, 4]);
  });
});

describe('the sequencer', () => {
  it('gives the events of concurrent writers one gap-free chain', async () => {
    const gateway = await startTestGateway();
    gateways.push(gateway);
    const created = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        gateway.call('POST', '/api/admin/groups', { body: { name: `concurrent-${i}`, scopes: [] } }),
      ),
    );
    expect(created.map((result) => result.status)).toEqual(Array(40).fill(201));
    const report = await sequenced(gateway);
    const total = (await gateway.call('GET', '/api/audit/events', { query: { limit: 1 } })).body.pagination
      .total;
    expect(report).toMatchObject({
      valid: true,
      checkedEvents: total,
      headSeq: total,
      firstBrokenLink: null,
    });
  });

  it('chains the events of one-statement changes (renames) and of transactions (new groups) made at once into one gap-free chain', async () => {
    const gateway = await startTestGateway();
    gateways.push(gateway);
    const { id } = (await gateway.call('GET', '/auth/me')).body.data;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0
          ? gateway.call('PATCH', `/api/admin/users/${id}/name`, { body: { name: `renamed-${i}` } })
          : gateway.call('POST', '/api/admin/groups', { body: { name: `mixed-${i}`, scopes: [] } }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([
      ...Array(20).fill(200),
      ...Array(20).fill(201),
    ]);
    const report = await sequenced(gateway);
    const renames = await auditEventsMatching(gateway, { action: 'users.user.renamed', targetId: id });
    expect(renames.map((event) => event.metadata.name).sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `renamed-${i * 2}`).sort(),
    );
    const total = (await gateway.call('GET', '/api/audit/events', { query: { limit: 1 } })).body.pagination
      .total;
    expect(report).toMatchObject({ valid: true, checkedEvents: total, headSeq: total });
  });

  it('sequences an event within moments of its commit, without being asked', async () => {
    const gateway = await startTestGateway();
    gateways.push(gateway);
    await makeEvents(gateway, 1, 'prompt');
    const event = await eventually(async () => {
      const [newest] = (await gateway.call('GET', '/api/audit/events')).body.data;
      return newest.seq !== null && newest;
    }, 'the event sequenced');
    expect(event).toMatchObject({
      seq: 1,
      prevHash: '0'.repeat(64),
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });
});
