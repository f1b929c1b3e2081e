import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createRule, createWebhookChannel, deliveriesSettle } from '../notifications/helpers.js';
import { type NotificationReceiver, startNotificationReceiver } from '../services/notification-receiver.js';
import { eventually } from '../support/eventually.js';
import { podmanNodeFor, podmanSkipReason, podmanSuite, runSavedCheck } from './helpers.js';

// A saved health check notifies when its container really goes down on Podman, and when it comes back.
const suite = podmanSuite();
const { names } = suite;

describe.skipIf(Boolean(podmanSkipReason))('health-check notifications against Podman', () => {
  const node = podmanNodeFor(suite, {
    publicUrl: 'https://console.example.test',
    notify: { ...loadConfig({}).notify, pollIntervalMs: 60_000, retryBaseMs: 1, retryMaxMs: 1 },
  });
  let receiver: NotificationReceiver;
  let ruleId: string;
  beforeAll(async () => {
    receiver = await startNotificationReceiver();
    const channelId = await createWebhookChannel(node.gateway, receiver.webhookUrl);
    ruleId = await createRule(node.gateway, 'containerhost.health_check.changed', [channelId], {
      filters: { nodeId: node.nodeId, containerName: names.stopper },
    });
    // No port given: each run probes the container's published port, which a restart may change.
    const saved = await node.gateway.call('PUT', `${node.base()}/containers/${names.stopper}/health-check`, {
      body: {},
    });
    expect(saved.status).toBe(200);
  });
  afterAll(() => receiver?.stop());

  /** Makes the saved check due and runs the background job once; answers the status it recorded. */
  async function runCheck(): Promise<string> {
    await runSavedCheck(node, names.stopper);
    const results = await node.gateway.call(
      'GET',
      `${node.base()}/containers/${names.stopper}/health-check/results`,
      { query: { limit: 1 } },
    );
    return results.body.data[0].status;
  }
  const notified = () => receiver.accepted.filter((request) => request.json?.rule?.id === ruleId);
  const deliveries = async () =>
    (await node.gateway.call('GET', `/api/notifications/deliveries?ruleId=${ruleId}`)).body.data;

  it('notifies nothing while the running container answers: the check is online', async () => {
    expect(await runCheck()).toBe('online');
    expect(await deliveries()).toEqual([]);
  });

  it('notifies once when the container is stopped and the next run finds it offline', async () => {
    await node.podman.docker.getContainer(names.stopper).stop({ t: 0 });
    expect(await runCheck()).toBe('offline');
    expect(await runCheck()).toBe('offline');
    await deliveriesSettle(node.gateway, `ruleId=${ruleId}`, 'delivered', 1);
    expect(notified()).toHaveLength(1);
    expect(notified()[0]!.json).toMatchObject({
      kind: 'containerhost.health_check.changed',
      state: 'offline',
      previousState: 'online',
      recovered: false,
      resource: { type: 'containerhost_health_check', name: names.stopper },
      labels: { nodeId: node.nodeId, containerName: names.stopper },
    });
  });

  it('notifies the recovery once when the container runs again', async () => {
    await node.podman.docker.getContainer(names.stopper).start();
    // httpd may take a moment to listen after the start; offline runs until then change nothing.
    await eventually(async () => (await runCheck()) === 'online', 'the check to be online again');
    await deliveriesSettle(node.gateway, `ruleId=${ruleId}`, 'delivered', 2);
    expect(notified()).toHaveLength(2);
    expect(notified()[1]!.json).toMatchObject({
      state: 'online',
      previousState: 'offline',
      recovered: true,
    });
  });

  it('closes the alert with one notification when a check whose container is down is disabled', async () => {
    await node.podman.docker.getContainer(names.stopper).stop({ t: 0 });
    expect(await runCheck()).toBe('offline');
    const disabled = await node.gateway.call(
      'PUT',
      `${node.base()}/containers/${names.stopper}/health-check`,
      {
        body: { enabled: false },
      },
    );
    expect(disabled.status).toBe(200);
    await deliveriesSettle(node.gateway, `ruleId=${ruleId}`, 'delivered', 4);
    expect(notified().map((request) => request.json.state)).toEqual([
      'offline',
      'online',
      'offline',
      'disabled',
    ]);
    expect(notified()[3]!.json.recovered).toBe(true);
    const alerts = await node.gateway.call('GET', '/api/notifications/alerts');
    expect(alerts.body.data).toEqual([]);
  });
});
