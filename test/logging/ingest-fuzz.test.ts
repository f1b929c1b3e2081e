import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { otlpRecords } from '../../src/modules/logging/otlp-logs.js';
import { decodeExportLogsRequest, ProtobufError } from '../../src/modules/logging/otlp-protobuf.js';
import { parseJsonRecord } from '../../src/modules/logging/record-input.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { logStore } from './log-store.js';

/**
 * Throws generated input at the ingest parsers (many runs, in process) and at the ingest routes
 * (fewer, over HTTP): every answer is 2xx or a 4xx envelope, and accepted + rejected always adds up
 * to the records sent. Seeded like test/hardening/contract-fuzz.test.ts (FUZZ_SEED, FUZZ_RUNS).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const RUNS = Number(process.env.FUZZ_RUNS ?? 8);
const PARSER_RUNS = RUNS * 50;

let gateway: TestGateway;
let store: ReturnType<typeof logStore>;
let token: string;
beforeAll(async () => {
  gateway = await startTestGateway();
  store = logStore(gateway);
  token = await store.token((await store.environment()).id);
});
afterAll(() => gateway.close());

const hex = (length: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: length, maxLength: length });

/** Values shaped like records: the core properties with values of any type, plus odd fields. */
const recordLike = fc.record(
  {
    timestamp: fc.oneof(
      fc.integer(),
      fc.double(),
      fc.string(),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
    ),
    level: fc.oneof(
      fc.integer({ min: -2, max: 30 }),
      fc.constantFrom('info', 'WARN', 'emerg', 'x'),
      fc.jsonValue(),
    ),
    message: fc.oneof(fc.string({ unit: 'binary' }), fc.jsonValue()),
    service: fc.oneof(fc.string(), fc.jsonValue()),
    traceId: fc.oneof(hex(32), fc.string()),
    spanId: fc.oneof(hex(16), fc.string()),
    fields: fc.jsonValue(),
    extra: fc.jsonValue(),
    __proto__: fc.jsonValue(),
  },
  { requiredKeys: [] },
);

const anyValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.record({ stringValue: fc.string({ unit: 'binary' }) }),
    fc.record({ intValue: fc.oneof(fc.bigInt().map(String), fc.integer(), fc.string()) }),
    fc.record({ doubleValue: fc.oneof(fc.double(), fc.string()) }),
    fc.record({ arrayValue: fc.record({ values: fc.array(tie('value'), { maxLength: 3 }) }) }),
    fc.record({
      kvlistValue: fc.record({ values: fc.array(fc.record({ key: fc.string(), value: tie('value') })) }),
    }),
    fc.jsonValue(),
  ),
})).value;
const otlpLike = fc.record({
  resourceLogs: fc.oneof(
    fc.array(
      fc.record({
        resource: fc.record({ attributes: fc.array(fc.record({ key: fc.string(), value: anyValue })) }),
        scopeLogs: fc.array(
          fc.record({
            scope: fc.record({ name: fc.jsonValue() }),
            logRecords: fc.array(
              fc.record(
                {
                  timeUnixNano: fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 64n }).map(String), fc.jsonValue()),
                  severityNumber: fc.oneof(fc.integer(), fc.string()),
                  body: anyValue,
                  traceId: fc.oneof(hex(32), fc.string()),
                  attributes: fc.oneof(
                    fc.array(fc.record({ key: fc.string(), value: anyValue })),
                    fc.jsonValue(),
                  ),
                },
                { requiredKeys: [] },
              ),
              { maxLength: 4 },
            ),
          }),
          { maxLength: 3 },
        ),
      }),
      { maxLength: 3 },
    ),
    fc.jsonValue(),
  ),
});

describe('ingest parsers on generated input', () => {
  it('parse any JSON value into a stored record or issues with paths, never an exception', () => {
    fc.assert(
      fc.property(fc.oneof(recordLike, fc.jsonValue()), (value) => {
        const parsed = parseJsonRecord(value, new Date());
        if ('issues' in parsed) expect(parsed.issues.length).toBeGreaterThan(0);
        else expect(Number.isNaN(parsed.record.occurredAt.getTime())).toBe(false);
      }),
      { seed: SEED, numRuns: PARSER_RUNS },
    );
  });

  it('map any OTLP/JSON-shaped value, or refuse it as a validation error', () => {
    fc.assert(
      fc.property(otlpLike, (value) => {
        try {
          otlpRecords(value, new Date());
        } catch (error) {
          expect(error).toBeInstanceOf(AppError);
        }
      }),
      { seed: SEED, numRuns: PARSER_RUNS },
    );
  });

  it('decode any bytes as protobuf, or refuse them as malformed', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        try {
          otlpRecords(decodeExportLogsRequest(Buffer.from(bytes)), new Date());
        } catch (error) {
          expect(error instanceof ProtobufError || error instanceof AppError).toBe(true);
        }
      }),
      { seed: SEED, numRuns: PARSER_RUNS },
    );
  });
});

describe('ingest routes on generated input', () => {
  const expectAnswered = (result: { status: number; text: string; body: unknown }) => {
    expect(result.status, result.text.slice(0, 300)).toBeLessThan(500);
    if (result.status >= 400) expect(result.body).toMatchObject({ code: expect.any(String) });
  };

  it('answer NDJSON of generated lines with accepted + rejected = lines', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            recordLike.map((r) => JSON.stringify(r)),
            fc.string({ unit: 'binary' }),
          ),
          {
            minLength: 1,
            maxLength: 20,
          },
        ),
        async (lines) => {
          const body = lines.map((line) => line.replaceAll('\n', ' ')).join('\n');
          const result = await store.ingest(token, body);
          expectAnswered(result);
          if (result.status === 200) {
            const sent = body.split('\n').filter((line) => line.trim() !== '').length;
            expect(result.body.data.accepted + result.body.data.rejected).toBe(sent);
          }
        },
      ),
      { seed: SEED, numRuns: RUNS * 5 },
    );
  });

  it('answer generated JSON and OTLP bodies without a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.array(recordLike), recordLike, fc.jsonValue()),
        otlpLike,
        fc.uint8Array(),
        async (records, otlp, bytes) => {
          expectAnswered(await store.ingest(token, records));
          const post = (body: string | Buffer, type: string) =>
            gateway.call('POST', '/v1/logs', { token, rawBody: body, headers: { 'content-type': type } });
          expectAnswered(await post(JSON.stringify(otlp), 'application/json'));
          expectAnswered(await post(Buffer.from(bytes), 'application/x-protobuf'));
        },
      ),
      { seed: SEED, numRuns: RUNS * 5 },
    );
  });
});
