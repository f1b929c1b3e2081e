import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { type Config, loadConfig, type NotifyConfig } from '../../src/config.js';
import type { NotificationEvent } from '../../src/core/notifications.js';
import { openssl } from '../services/openssl-pki.js';
import { eventually } from '../support/eventually.js';
import { startTestGateway, type TestGateway, type TestGatewayOptions } from '../support/gateway.js';

export const WEBHOOK_SECRET = 'notify-webhook-secret-0123456789';

/** A test gateway whose delivery worker retries quickly (and only runs when a test asks it to). */
export function startNotifyGateway(
  notify: Partial<NotifyConfig> = {},
  overrides: Partial<Config> = {},
  options: TestGatewayOptions = {},
) {
  return startTestGateway(
    {
      publicUrl: 'https://console.example.test',
      notify: {
        ...loadConfig({}).notify,
        pollIntervalMs: 60_000,
        retryBaseMs: 1,
        retryMaxMs: 1,
        ...notify,
      },
      ...overrides,
    },
    options,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: request bodies of every shape
export async function created(gateway: TestGateway, url: string, body: any): Promise<string> {
  const response = await gateway.call('POST', url, { body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data.id;
}

export function createWebhookChannel(gateway: TestGateway, url: string, extra: Record<string, unknown> = {}) {
  return created(gateway, '/api/notifications/channels', {
    name: `hook-${Math.random()}`,
    kind: 'webhook',
    url,
    ...extra,
  });
}

export function createRule(
  gateway: TestGateway,
  event: string,
  channelIds: string[],
  extra: Record<string, unknown> = {},
) {
  return created(gateway, '/api/notifications/rules', {
    name: `rule-${Math.random()}`,
    event,
    channelIds,
    ...extra,
  });
}

/** What a producer does: one emit inside its own transaction. */
export function emit(gateway: TestGateway, event: NotificationEvent): Promise<number> {
  return gateway.deps.db.transaction((tx) => gateway.deps.notifications.emit(tx, event));
}

export function runJob(
  gateway: TestGateway,
  name: 'notifications.deliver' | 'notifications.sweep' | 'notifications.audit-chain' | 'logging.alert-rules',
) {
  return gateway.deps.jobs.runNow(name);
}

/** Runs the delivery worker until the deliveries listed by `query` all reach `status`. */
export async function deliveriesSettle(gateway: TestGateway, query: string, status: string, count = 1) {
  return eventually(async () => {
    await runJob(gateway, 'notifications.deliver');
    const list = await gateway.call('GET', `/api/notifications/deliveries?limit=100&${query}`);
    const rows = list.body.data as { id: string; status: string }[];
    return rows.length === count && rows.every((row) => row.status === status) ? rows : undefined;
  }, `${count} deliveries ${status}`);
}

export const healthEvent = (state: string, id = '3f1c1f9e-8a57-4d7b-9b42-6f7c3e0a5d11') =>
  ({
    kind: 'containerhost.health_check.changed',
    resource: { type: 'containerhost_health_check', id, name: 'web' },
    labels: { nodeId: '0b6d8c8e-1f0e-4d9c-8b0a-2a8b5f1c9e77', containerName: 'web' },
    state,
    details: { url: 'http://10.0.0.5:8080/health' },
  }) as const satisfies NotificationEvent;

/** A self-signed EC certificate valid from now for `days` days, and its key, made by openssl. */
export function certificateValidFor(
  days: number,
  commonName: string,
): { certificatePem: string; privateKeyPem: string } {
  if (!openssl.path) throw new Error(openssl.skipReason);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-notify-cert-'));
  try {
    execFileSync(
      openssl.path,
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
        '-days',
        String(days),
        '-subj',
        `/CN=${commonName}`,
        '-addext',
        `subjectAltName=DNS:${commonName}`,
      ],
      { stdio: 'ignore' },
    );
    return {
      certificatePem: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
      privateKeyPem: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
