import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import {
  auditEvents,
  NOTIFICATION_EVENTS,
  type NotificationEventKind,
  nodeAgents,
  sslCertificates,
} from '../../src/db/schema/index.js';
import { createWebhook, fastSiem } from '../audit/helpers.js';
import { certificateValidFor, createRule, createWebhookChannel, runJob } from '../notifications/helpers.js';
import { type FakeGitlab, startFakeGitlab } from '../services/fake-gitlab-v4.js';
import { type NotificationReceiver, startNotificationReceiver } from '../services/notification-receiver.js';
import { openssl } from '../services/openssl-pki.js';
import { freePort } from '../services/peers.js';
import { type PodmanPeer, podmanBinaries } from '../services/podman.js';
import { type ConsoleHarness, type ConsoleUser, describeInBrowser } from '../support/console.js';
import { openSignedIn, startContainerConsole } from '../support/containerhost-console.js';
import { eventually } from '../support/eventually.js';

const run = Date.now().toString(36);
const CONTAINER = `ig-${run}-web`;

/**
 * What each page a notification links to must show: its heading, and what makes it the page of
 * that resource (the selected tab, the filters the link carries).
 */
type PageCheck = (page: Page) => Promise<void>;

const tabSelected = (page: Page, name: string) => page.getByRole('tab', { name, selected: true }).waitFor();

describeInBrowser(
  'the console pages notifications link to',
  () => {
    let harness: ConsoleHarness;
    let podman: PodmanPeer;
    let gitlab: FakeGitlab;
    let receiver: NotificationReceiver;
    let operator: ConsoleUser;
    let victimEmail: string;
    /** The link of the first notification of each event kind, and of a test send. */
    const links = new Map<NotificationEventKind | 'notifications.test', URL>();

    beforeAll(async () => {
      receiver = await startNotificationReceiver();
      gitlab = await startFakeGitlab();
      let nodeId: string;
      ({ harness, podman, nodeId } = await startContainerConsole({
        gateway: {
          publicUrl: 'https://console.example.test',
          // Every chain check walks the whole chain, so an older event's change is found at once.
          notify: { ...loadConfig({}).notify, pollIntervalMs: 50, chainFullWalkSeconds: 0 },
          loginMaxFailuresPerEmail: 3,
          // One failed attempt fails a SIEM delivery and opens the destination's circuit.
          ...fastSiem({ circuitThreshold: 1, maxAttempts: 1, retryBaseMs: 600_000, retryMaxMs: 600_000 }),
        },
      }));
      const gateway = harness.gateway;
      operator = await harness.createUser([
        'audit:view',
        'certificates:view',
        'containerhost:view',
        'integrations:view',
        'notifications:view',
        'nodes:view',
        'logging:view',
      ]);
      const channelId = await createWebhookChannel(gateway, receiver.webhookUrl);
      // logging.query.threshold: fewer than one record in an empty environment fires at once.
      const environment = await gateway.call('POST', '/api/logging/environments', {
        body: { name: 'quiet-logs' },
      });
      const extras: Partial<Record<NotificationEventKind, Record<string, unknown>>> = {
        'repohost.token.expiring': { withinDays: [14] },
        'logging.query.threshold': {
          logQuery: {
            environmentId: environment.body.data.id,
            query: { levels: ['info'] },
            threshold: { op: 'below', count: 1, windowMinutes: 5 },
          },
        },
      };
      for (const event of NOTIFICATION_EVENTS)
        await createRule(gateway, event, [channelId], extras[event] ?? {});
      await runJob(gateway, 'logging.alert-rules');

      // certificates.expiring: reported when the certificate is stored; certificates.expired: by the
      // sweep, once its expiry passed (as far as the sweep can tell).
      await gateway.call('POST', '/api/ssl-certificates/upload', {
        body: { name: 'portal', ...certificateValidFor(3, 'portal.example.test') },
      });
      const legacy = await gateway.call('POST', '/api/ssl-certificates/upload', {
        body: { name: 'legacy', ...certificateValidFor(1, 'legacy.example.test') },
      });
      await gateway.deps.db
        .update(sslCertificates)
        .set({ notAfter: new Date(Date.now() - 86_400_000) })
        .where(eq(sslCertificates.id, legacy.body.data.id));

      // containerhost.health_check.changed: a check of a running container nobody answers on.
      const container = await podman.docker.createContainer({
        name: CONTAINER,
        Image: podman.image,
        Cmd: ['sleep', '600'],
      });
      await container.start();
      const check = await gateway.call(
        'PUT',
        `/api/containerhost/nodes/${nodeId}/containers/${CONTAINER}/health-check`,
        {
          body: { hostPort: await freePort(), intervalSeconds: 5 },
        },
      );
      expect(check.status).toBe(200);

      // siem.delivery.failed and siem.destination.circuit_opened: a destination nobody listens at,
      // which exports the events recorded after it.
      await createWebhook(gateway, `http://127.0.0.1:${await freePort()}/events`, {
        name: 'siem-east',
        batchSize: 1,
      });
      await gateway.call('POST', '/api/admin/groups', { body: { name: `exported-${run}`, scopes: [] } });

      // repohost.token.expiring: the connector's probe finds a token that expires in 10 days.
      gitlab.users.push({ id: 1, username: 'deployer', name: 'Deploy Bot' });
      const expiresAt = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
      gitlab.tokens.push({ token: 'glpat-LinkTestToken0000011', userId: 1, scopes: ['api'], expiresAt });
      await gateway.call('POST', '/api/integrations/repohost/connectors', {
        body: { name: 'gitlab-links', baseUrl: gitlab.url, token: 'glpat-LinkTestToken0000011' },
      });
      await runJob(gateway, 'notifications.sweep');

      // auth.login.throttled: wrong passwords until the account is locked.
      victimEmail = (await harness.createUser([])).email;
      for (let attempt = 0; attempt < 3; attempt++) {
        await gateway.call('POST', '/auth/login', {
          token: null,
          body: { email: victimEmail, password: 'wrong' },
        });
      }

      // audit.chain.broken: an event changed behind the gateway's back, then put back.
      await runJob(gateway, 'notifications.audit-chain');
      const [victimEvent] = await gateway.deps.db.select().from(auditEvents).where(eq(auditEvents.seq, 2));
      await gateway.deps.db
        .update(auditEvents)
        .set({ action: 'tampered.with' })
        .where(eq(auditEvents.seq, 2));
      await runJob(gateway, 'notifications.audit-chain');
      await gateway.deps.db
        .update(auditEvents)
        .set({ action: victimEvent!.action })
        .where(eq(auditEvents.seq, 2));

      // nodes.node.offline: an agent node whose tunnel went silent (its row as a vanished gateway
      // instance left it), found by the sweep.
      const agentNode = await gateway.call('POST', '/api/nodes', { body: { name: 'edge-1', kind: 'agent' } });
      await gateway.deps.db
        .update(nodeAgents)
        .set({ status: 'online', lastSeenAt: new Date(0) })
        .where(eq(nodeAgents.nodeId, agentNode.body.data.id));
      await gateway.deps.jobs.runNow('nodes.agent-sweep');

      await gateway.call('POST', `/api/notifications/channels/${channelId}/test`);
      await eventually(
        () => {
          for (const request of receiver.accepted) {
            const kind = request.json.kind;
            if (!links.has(kind)) links.set(kind, new URL(request.json.url));
          }
          return links.size === NOTIFICATION_EVENTS.length + 1;
        },
        'a notification of every kind',
        60_000,
      );
    }, 240_000);
    afterAll(async () => {
      const container = podman?.docker.getContainer(CONTAINER);
      await container?.kill().catch(() => {});
      await container?.remove({ force: true }).catch(() => {});
      await Promise.all([harness?.close(), podman?.stop(), gitlab?.close(), receiver?.stop()]);
    }, 60_000);

    const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name }).waitFor();
    const checks: Record<NotificationEventKind | 'notifications.test', PageCheck> = {
      'certificates.expiring': (page) => heading(page, 'portal'),
      'certificates.expired': (page) => heading(page, 'legacy'),
      'containerhost.health_check.changed': async (page) => {
        await heading(page, CONTAINER);
        await tabSelected(page, 'Health check');
      },
      'siem.destination.circuit_opened': async (page) => {
        await heading(page, 'Audit');
        await tabSelected(page, 'SIEM destinations');
        await page.getByRole('table', { name: 'SIEM destinations' }).getByText('siem-east').waitFor();
      },
      'siem.delivery.failed': async (page) => {
        await heading(page, 'Audit');
        await tabSelected(page, 'Deliveries');
        await expect
          .poll(() => page.getByRole('combobox', { name: 'Destination' }).inputValue())
          .toBe('siem-east');
        await page.getByRole('table', { name: 'Deliveries' }).getByText('failed').first().waitFor();
      },
      'repohost.token.expiring': (page) => heading(page, 'gitlab-links'),
      'auth.login.throttled': async (page) => {
        await heading(page, 'Audit');
        await expect
          .poll(() => page.getByRole('textbox', { name: 'Action' }).inputValue())
          .toBe('auth.login.failed');
        await expect.poll(() => page.getByRole('textbox', { name: 'Actor' }).inputValue()).toBe(victimEmail);
        // The header and the three failed logins of the locked account, nothing else.
        const rows = page.getByRole('table', { name: 'Audit events' }).getByRole('row');
        await expect.poll(() => rows.count()).toBe(4);
        expect(await rows.filter({ hasText: 'auth.login.failed' }).count()).toBe(3);
      },
      'audit.chain.broken': async (page) => {
        await heading(page, 'Audit');
        await tabSelected(page, 'Events');
        await page.getByRole('button', { name: 'Verify chain' }).waitFor();
      },
      'nodes.node.offline': (page) => heading(page, 'edge-1'),
      'logging.query.threshold': (page) => heading(page, 'quiet-logs'),
      'notifications.test': (page) => heading(page, 'Notifications'),
    };

    for (const kind of [...NOTIFICATION_EVENTS, 'notifications.test'] as const) {
      it(`opens the page a ${kind} notification links to`, async () => {
        const link = links.get(kind)!;
        expect(link.origin).toBe('https://console.example.test');
        const { page, problems } = await openSignedIn(harness, operator, `${link.pathname}${link.search}`);
        await checks[kind](page);
        expect(problems).toEqual([]);
      });
    }

    it('links an open alert on the overview to the page its notification links to', async () => {
      const { page } = await openSignedIn(harness, operator, '/overview');
      const alerts = page.getByRole('region', { name: 'Open alerts' });
      await alerts.getByRole('link', { name: `Health check of ${CONTAINER} is offline` }).click();
      await page.waitForURL(`**${links.get('containerhost.health_check.changed')!.pathname}`);
      await checks['containerhost.health_check.changed'](page);
    });
  },
  podmanBinaries(),
  openssl,
);
