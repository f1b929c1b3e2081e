import { asc, eq, gte } from 'drizzle-orm';
import { loadConfig, type SiemConfig } from '../../src/config.js';
import { chainHash } from '../../src/core/audit-recorder.js';
import { auditEvents } from '../../src/db/schema/index.js';
import { eventually } from '../support/eventually.js';
import type { TestGateway } from '../support/gateway.js';

/** Export settings for tests: the worker polls often and retries quickly. */
export function fastSiem(overrides: Partial<SiemConfig> = {}): { siem: SiemConfig } {
  return {
    siem: {
      ...loadConfig({}).siem,
      pollIntervalMs: 50,
      flushIntervalMs: 0,
      retryBaseMs: 20,
      retryMaxMs: 100,
      circuitThreshold: 1000,
      sendTimeoutMs: 5000,
      ...overrides,
    },
  };
}

export const WEBHOOK_SECRET = 'test-webhook-secret-0123456789';
export const HEC_TOKEN = '5f1e0c4a-1b2c-4d3e-9f00-abcdefabcdef';

/** Makes `count` audit events through a real mutation route (group creation). */
export async function makeEvents(gateway: TestGateway, count: number, prefix = 'g'): Promise<void> {
  for (let i = 0; i < count; i++) {
    const result = await gateway.call('POST', '/api/admin/groups', {
      body: { name: `${prefix}-${i}-${Math.random().toString(36).slice(2, 8)}`, scopes: [] },
    });
    if (result.status !== 201) throw new Error(`group create answered ${result.status}`);
  }
}

export async function createWebhook(gateway: TestGateway, url: string, extra: Record<string, unknown> = {}) {
  const result = await gateway.call('POST', '/api/audit/siem/destinations', {
    body: {
      name: `hook-${Math.random().toString(36).slice(2, 8)}`,
      kind: 'webhook',
      url,
      secret: WEBHOOK_SECRET,
      ...extra,
    },
  });
  if (result.status !== 201) throw new Error(`destination create answered ${result.status}: ${result.text}`);
  return result.body.data as { id: string; name: string; cursorSeq: number };
}

/** Waits until the sequencer gave every committed event its seq and hashes; answers the chain report. */
export async function sequenced(gateway: TestGateway) {
  return eventually(async () => {
    const report = (await gateway.call('GET', '/api/audit/verify')).body.data;
    return report.unsequencedEvents === 0 ? report : undefined;
  }, 'every audit event sequenced');
}

/** What someone with write access to the database could do: change an event, then re-hash the rest. */
export async function rewriteFrom(target: TestGateway, seq: number): Promise<void> {
  const { db } = target.deps;
  await db.update(auditEvents).set({ action: 'users.group.renamed' }).where(eq(auditEvents.seq, seq));
  const [before] = await db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.seq, seq - 1));
  let prevHash = before!.hash!;
  const rows = await db
    .select()
    .from(auditEvents)
    .where(gte(auditEvents.seq, seq))
    .orderBy(asc(auditEvents.seq));
  for (const row of rows) {
    const hash = chainHash(prevHash, { ...row, seq: row.seq! });
    await db.update(auditEvents).set({ prevHash, hash }).where(eq(auditEvents.entry, row.entry));
    prevHash = hash;
  }
}
