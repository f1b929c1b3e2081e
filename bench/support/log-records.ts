import type { BenchGateway } from './gateway.js';

/** Log records for the logging benches: realistic shapes, deterministic content. */

const WORDS = (
  'request handled user session cache database query connection pool worker job queue retry upstream ' +
  'service response status payment order invoice checkout cart account login logout token refresh ' +
  'config reload health check disk memory latency slow fast started stopped finished failed accepted ' +
  'rejected created updated deleted sent received batch record event stream socket client server'
).split(' ');
/** A word found in about 1 % of the messages, for full-text searches with a known selectivity. */
export const RARE_WORD = 'timeout';
const SERVICES = ['api', 'web', 'worker', 'billing', 'auth', 'search', 'mailer', 'scheduler'];
const LEVELS = ['debug', 'info', 'info', 'info', 'info', 'warn', 'error'];
const REGIONS = ['eu-west', 'eu-central', 'us-east', 'us-west', 'ap-south'];

/** A small deterministic PRNG (mulberry32), so every run stores the same records. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SampleRecord {
  timestamp: string;
  level: string;
  service: string;
  message: string;
  fields: { user: string; status: number; region: string; durationMs: number; requestId: string };
}

/** `count` records spread evenly over [startMs, startMs + spanMs). */
export function sampleRecords(count: number, startMs: number, spanMs: number, seed = 1): SampleRecord[] {
  const next = random(seed);
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
  return Array.from({ length: count }, (_, i) => {
    const words = Array.from({ length: 8 + Math.floor(next() * 5) }, () => pick(WORDS));
    if (next() < 0.01) words[Math.floor(next() * words.length)] = RARE_WORD;
    return {
      timestamp: new Date(startMs + Math.floor((i * spanMs) / count)).toISOString(),
      level: pick(LEVELS),
      service: pick(SERVICES),
      message: words.join(' '),
      fields: {
        user: `u${Math.floor(next() * 10_000)}`,
        status: pick([200, 200, 200, 201, 204, 400, 404, 500]),
        region: pick(REGIONS),
        durationMs: Math.round(next() * 2000),
        requestId: Math.floor(next() * 2 ** 48).toString(16),
      },
    };
  });
}

/** An environment with limits no bench reaches, and an ingest token for it. */
export async function benchEnvironment(gateway: BenchGateway, name: string) {
  const headers = { authorization: `Bearer ${gateway.token}` };
  const created = await gateway.app.inject({
    method: 'POST',
    url: '/api/logging/environments',
    headers,
    payload: {
      name,
      retentionDays: 30,
      ingest: {
        maxRecords: 100_000,
        recordsPerSecond: 1_000_000,
        bytesPerSecond: 1024 ** 3,
        maxBodyBytes: 64 * 1024 ** 2,
      },
    },
  });
  const environmentId = created.json().data.id as string;
  const token = await gateway.app.inject({
    method: 'POST',
    url: `/api/logging/environments/${environmentId}/tokens`,
    headers,
    payload: { name: 'bench' },
  });
  return { environmentId, ingestToken: token.json().data.token as string };
}

/** Percentile of sorted numbers (nearest rank). */
export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
