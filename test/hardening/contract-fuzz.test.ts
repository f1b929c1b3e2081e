import SwaggerParser from '@apidevtools/swagger-parser';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/raw.js';
import { type CallResult, startTestGateway, type TestGateway } from '../support/gateway.js';
import {
  applyViolation,
  type JsonSchema,
  ODD_STRINGS,
  sampleOnce,
  validSample,
  violationsOf,
} from '../support/schema-samples.js';

/**
 * Walks /openapi.json and throws valid and invalid requests at every operation. Seeded and
 * repeatable: FUZZ_SEED picks the seed, FUZZ_RUNS the valid requests per operation
 * (`npm run fuzz` runs many more than the default).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 8);
const CODES = [
  'VALIDATION_ERROR',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'UNPROCESSABLE_ENTITY',
  'INTERNAL_ERROR',
];

interface Operation {
  method: string;
  path: string;
  params: { name: string; in: string; required?: boolean; schema: JsonSchema }[];
  body?: JsonSchema;
  jsonBody: boolean;
}

let gateway: TestGateway;
const operations: Operation[] = [];
const INGEST_PATHS = ['/api/logging/ingest', '/v1/logs'];
// Ending the caller's own session would end the fuzzing; these get a throw-away token each time.
const SELF_ENDING = new Set(['POST /auth/logout']);

async function send(operation: Operation, url: string, options: Parameters<TestGateway['call']>[2] = {}) {
  const token = SELF_ENDING.has(`${operation.method} ${operation.path}`)
    ? await gateway.tokenWithScopes(['*'])
    : undefined;
  return gateway.call(operation.method, url, { ...options, ...(token ? { token } : {}) });
}

beforeAll(async () => {
  gateway = await startTestGateway();
  const served = (await gateway.call('GET', '/openapi.json', { token: null })).body;
  // Schemas shared as components are referred to with $ref: the samples need them inline.
  const document: JsonSchema = await SwaggerParser.dereference(served);
  for (const [path, item] of Object.entries<JsonSchema>(document.paths)) {
    if (path.startsWith('/sites/')) continue; // public static serving: not an API operation
    // Ingest answers 401 to anything but an ingest token; test/logging/ingest-fuzz.test.ts fuzzes it.
    if (INGEST_PATHS.includes(path)) continue;
    for (const [method, operation] of Object.entries(item)) {
      const content = operation.requestBody?.content ?? {};
      operations.push({
        method: method.toUpperCase(),
        path,
        params: operation.parameters ?? [],
        body: content['application/json']?.schema,
        jsonBody: Boolean(content['application/json']) || !operation.requestBody,
      });
    }
  }
});
afterAll(() => gateway.close());

function urlOf(operation: Operation, overrides: Record<string, unknown> = {}, seed = SEED): string {
  let url = operation.path;
  const query = new URLSearchParams();
  for (const param of operation.params) {
    const value = param.name in overrides ? overrides[param.name] : sampleOnce(param.schema, seed);
    if (param.in === 'path') url = url.replace(`{${param.name}}`, encodeURIComponent(String(value)));
    else if (param.in === 'query' && value !== undefined && (param.required || param.name in overrides))
      query.set(param.name, String(value));
  }
  const search = query.toString();
  return search ? `${url}?${search}` : url;
}

function expectEnvelope(result: CallResult, label: string): void {
  expect(result.status, `${label}: ${result.text.slice(0, 300)}`).toBeLessThan(500);
  if (result.status >= 400) {
    expect(CODES, label).toContain(result.body?.code);
    expect(typeof result.body?.message, label).toBe('string');
    expect(
      Object.keys(result.body).filter((key) => !['code', 'message', 'details'].includes(key)),
      label,
    ).toEqual([]);
  }
}

async function databaseFingerprint(): Promise<string> {
  const tables = await queryRows<{ table_name: string }>(
    gateway.deps.db,
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  const counts: string[] = [];
  // Job leases are the gateway's own background coordination, taken whenever a job's turn comes.
  for (const { table_name } of tables.filter((table) => table.table_name !== 'job_leases')) {
    const [row] = await queryRows<{ n: number }>(
      gateway.deps.db,
      sql`select count(*)::int as n from ${sql.identifier(table_name)}`,
    );
    counts.push(`${table_name}=${row?.n}`);
  }
  return counts.join(',');
}

// Each test walks every operation of the API: the deadline is per walk, and the API keeps growing.
describe('contract fuzzing', { timeout: 180_000 }, () => {
  it('finds operations to fuzz', () => {
    expect(operations.length).toBeGreaterThan(10);
  });

  it('never answers 5xx to generated requests, and every error is the envelope', async () => {
    for (const operation of operations) {
      await fc.assert(
        fc.asyncProperty(
          operation.body ? validSample(operation.body) : fc.constant(undefined),
          fc.integer(),
          async (body, seed) => {
            const url = urlOf(operation, {}, seed);
            const result = await send(operation, url, body === undefined ? {} : { body });
            expectEnvelope(result, `${operation.method} ${url}`);
          },
        ),
        { seed: SEED, numRuns: RUNS },
      );
    }
  });

  it('answers every broken field with 400 naming that field, and changes nothing', async () => {
    const before = await databaseFingerprint();
    for (const operation of operations) {
      if (operation.body) {
        const base = sampleOnce(operation.body, SEED);
        for (const violation of violationsOf(operation.body)) {
          const body = applyViolation(base, violation, operation.body, SEED);
          const label = `${operation.method} ${operation.path} body ${JSON.stringify(violation.path)} ${violation.what}`;
          const result = await send(operation, urlOf(operation), { body });
          expectEnvelope(result, label);
          expect(result.status, `${label}: ${result.text.slice(0, 300)}`).toBe(400);
          const paths = (result.body.details as { path: unknown[] }[]).map((issue) =>
            JSON.stringify(issue.path),
          );
          expect(paths, label).toContain(JSON.stringify(violation.path));
        }
      }
      for (const param of operation.params.filter((p) => p.in === 'path' || p.in === 'query')) {
        for (const violation of violationsOf(param.schema, [param.name], false)) {
          if (violation.value === undefined || typeof violation.value === 'object') continue;
          // A path segment is text: a "number instead of string" is still a valid string there.
          if (typeof violation.value === 'number' && param.schema.type === 'string') continue;
          // An empty path segment is another URL (often the collection's), not an empty value.
          if (param.in === 'path' && violation.value === '') continue;
          const label = `${operation.method} ${operation.path} ${param.in} ${param.name} ${violation.what}`;
          const result = await gateway.call(
            operation.method,
            urlOf(operation, { [param.name]: violation.value }),
            {
              ...(operation.body ? { body: sampleOnce(operation.body, SEED) } : {}),
            },
          );
          expectEnvelope(result, label);
          expect(result.status, `${label}: ${result.text.slice(0, 300)}`).toBe(400);
        }
      }
    }
    expect(await databaseFingerprint()).toBe(before);
  });

  it('answers malformed JSON, wrong content types, huge and odd strings without a 5xx', async () => {
    const before = await databaseFingerprint();
    for (const operation of operations.filter((op) => ['POST', 'PUT', 'PATCH'].includes(op.method))) {
      const url = urlOf(operation);
      const malformed = await send(operation, url, {
        rawBody: '{"a": [1, ',
        headers: { 'content-type': 'application/json' },
      });
      expectEnvelope(malformed, `${operation.method} ${url} malformed JSON`);
      if (operation.jsonBody) expect(malformed.status, `${operation.method} ${url} malformed JSON`).toBe(400);
      const wrongType = await send(operation, url, {
        rawBody: '<a/>',
        headers: { 'content-type': 'application/xml' },
      });
      expectEnvelope(wrongType, `${operation.method} ${url} xml`);
      expect(wrongType.status).toBeGreaterThanOrEqual(400);
    }
    for (const operation of operations.filter((op) => op.body?.properties)) {
      for (const [name, property] of Object.entries<JsonSchema>(operation.body!.properties)) {
        if (property.type !== 'string') continue;
        for (const odd of [...ODD_STRINGS, 'x'.repeat(200_000)]) {
          const body = { ...(sampleOnce(operation.body!, SEED) as object), [name]: odd };
          const result = await send(operation, urlOf(operation), { body });
          expectEnvelope(
            result,
            `${operation.method} ${operation.path} ${name}=${JSON.stringify(odd.slice(0, 20))}`,
          );
        }
      }
    }
    // Odd strings may be valid input (a name of '💥'); only rejected requests must change nothing,
    // which the previous test checks. Here the database must merely still answer.
    expect(await databaseFingerprint()).toBeTypeOf('string');
    expect(before).toBeTypeOf('string');
  });
});
