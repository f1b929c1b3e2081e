import type { LoadResult } from './measure.js';

/** A load run and the CPU time the server process(es) spent per answered request meanwhile. */
export interface Measured extends LoadResult {
  cpuUs: number;
}

/** What one round measured for one tree on one database. */
export interface Sample {
  startMs?: number;
  idleRssMiB?: number;
  loadedRssMiB?: number;
  me?: Measured;
  meInfo?: Measured;
  rename?: Measured;
  kv?: Measured;
  /** Audited writes on two gateway processes at once (half the connections each), summed. */
  renameTwo?: Measured;
}

interface TableInput {
  raws: Measured[];
  /** Fastify alone answering the same JSON (bench/auth-me.ts `fastify`), in the same rounds. */
  fastifies: Measured[];
  samples: Map<string, Sample[]>;
  prepared: { tree: { label: string }; first: { startMs: number; rssMiB: number } }[];
  connections: number;
  seconds: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** `median [min–max]` with the given formatter; `–` when nothing was measured. */
function spread(values: (number | undefined)[], format: (value: number) => string): string {
  const present = values.filter((value): value is number => value !== undefined && Number.isFinite(value));
  if (present.length === 0) return '–';
  if (present.length === 1) return format(present[0]!);
  return `${format(median(present))} [${format(Math.min(...present))}–${format(Math.max(...present))}]`;
}

const rate = (value: number) => Math.round(value).toLocaleString('en-US');
const percent = (value: number) => `${value.toFixed(1)} %`;
const ms = (value: number) => `${Math.round(value)} ms`;
const mib = (value: number) => `${Math.round(value)} MiB`;
const times = (value: number) => `${value.toFixed(2)}×`;
const us = (value: number) => `${Math.round(value)} µs`;

/**
 * The table for one database: one column per tree, each cell the median over the rounds
 * and its range; ratios are computed within each round (against the raw server or `GET /auth/me`
 * of that same round), then summarised.
 */
export function summaryTable(database: string, input: TableInput): string {
  const labels = [...input.samples.keys()];
  type Pick = (sample: Sample, round: number) => number | undefined;
  const row = (name: string, pick: Pick, format: (value: number) => string): string[] => [
    name,
    ...labels.map((label) => spread(input.samples.get(label)!.map(pick), format)),
  ];
  /** A row of a baseline server (the same in every tree's column): raw `node:http` or Fastify alone. */
  const baselineRow = (
    name: string,
    results: Measured[],
    pick: (result: Measured, round: number) => number | undefined,
    format: (value: number) => string,
  ): string[] => [name, ...labels.map(() => spread(results.map(pick), format))];
  const rows: string[][] = [
    baselineRow(
      'raw `node:http` (same JSON as /auth/me), req/s',
      input.raws,
      (r) => r.requestsPerSecond,
      rate,
    ),
    baselineRow('… server CPU per request', input.raws, (r) => r.cpuUs, us),
    baselineRow(
      'Fastify alone (same JSON, its response schema, no hooks), req/s',
      input.fastifies,
      (r) => r.requestsPerSecond,
      rate,
    ),
    baselineRow('… vs raw `node:http`', input.fastifies, (r, i) => ratio(r, input.raws[i]), percent),
    baselineRow('… server CPU per request', input.fastifies, (r) => r.cpuUs, us),
    row('`GET /auth/me`, req/s', (x) => x.me?.requestsPerSecond, rate),
    row('… vs raw `node:http`', (x, i) => ratio(x.me, input.raws[i]), percent),
    row('… p99', (x) => x.me?.p99Ms, ms),
    row('… server CPU per request', (x) => x.me?.cpuUs, us),
    row(
      '… raw CPU per request ÷ this (ratio if both were CPU-bound)',
      (x, i) => cpuRatio(x.me, input.raws[i]),
      percent,
    ),
    row('… vs Fastify alone', (x, i) => ratio(x.me, input.fastifies[i]), percent),
    row('`GET /auth/me` with `LOG_LEVEL=info`, req/s', (x) => x.meInfo?.requestsPerSecond, rate),
    row('… vs request logs off', (x) => ratio(x.meInfo, x.me), percent),
    row('… server CPU per request', (x) => x.meInfo?.cpuUs, us),
    row('`PATCH /api/admin/users/{id}/name` (audited), req/s', (x) => x.rename?.requestsPerSecond, rate),
    row('… vs `GET /auth/me`', (x) => ratio(x.rename, x.me), percent),
    row('… p99', (x) => x.rename?.p99Ms, ms),
    row('… server CPU per request', (x) => x.rename?.cpuUs, us),
    row('key-value `GET k` (console), req/s', (x) => x.kv?.requestsPerSecond, rate),
    row('… vs `GET /auth/me`', (x) => ratio(x.kv, x.me), percent),
    row('… p99', (x) => x.kv?.p99Ms, ms),
    row('… server CPU per request', (x) => x.kv?.cpuUs, us),
    row('audited `PATCH` on two instances together, req/s', (x) => x.renameTwo?.requestsPerSecond, rate),
    row('… vs one instance', (x) => fraction(x.renameTwo, x.rename), times),
    row('… p99', (x) => x.renameTwo?.p99Ms, ms),
    row('start to `/readyz`, existing data', (x) => x.startMs, ms),
    row('RSS 2 s after start, idle', (x) => x.idleRssMiB, mib),
    row('RSS after the load above', (x) => x.loadedRssMiB, mib),
    [
      'first start (creates the database) to `/readyz`',
      ...labels.map((label) => firstOf(input, label, 'startMs', ms)),
    ],
    ['… RSS 2 s after it', ...labels.map((label) => firstOf(input, label, 'rssMiB', mib))],
  ];
  const errors = labels.flatMap((label) =>
    input.samples
      .get(label)!
      .flatMap((sample) =>
        [sample.me, sample.meInfo, sample.rename, sample.kv, sample.renameTwo]
          .filter((result): result is Measured => result !== undefined && result.errors + result.non2xx > 0)
          .map((result) => `${label} ${result.label}: ${result.errors} errors, ${result.non2xx} non-2xx`),
      ),
  );
  const header = `| ${database}, c=${input.connections}, ${input.seconds} s per run, ${input.raws.length} rounds | ${labels.join(' | ')} |`;
  const lines = [
    '',
    header,
    `|---|${labels.map(() => '---').join('|')}|`,
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
    ...(errors.length ? ['', 'errors:', ...errors] : []),
  ];
  return lines.join('\n');
}

/**
 * The throughput ratio the two would show if each had a core to itself: `baseline`'s CPU per request
 * over `result`'s. Unlike req/s, it does not move with the load other processes put on the machine.
 */
function cpuRatio(result: Measured | undefined, baseline: Measured | undefined): number | undefined {
  if (!result || !baseline || result.cpuUs === 0) return undefined;
  return (baseline.cpuUs / result.cpuUs) * 100;
}

function ratio(result: LoadResult | undefined, baseline: LoadResult | undefined): number | undefined {
  if (!result || !baseline || baseline.requestsPerSecond === 0) return undefined;
  return (result.requestsPerSecond / baseline.requestsPerSecond) * 100;
}

function fraction(result: LoadResult | undefined, baseline: LoadResult | undefined): number | undefined {
  const value = ratio(result, baseline);
  return value === undefined ? undefined : value / 100;
}

function firstOf(
  input: TableInput,
  label: string,
  key: 'startMs' | 'rssMiB',
  format: (value: number) => string,
) {
  const prepared = input.prepared.find((candidate) => candidate.tree.label === label);
  return prepared ? format(prepared.first[key]) : '–';
}
