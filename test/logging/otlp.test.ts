import { context, SeverityNumber, TraceFlags, trace } from '@opentelemetry/api';
import { OTLPLogExporter as JsonExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as ProtobufExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  LoggerProvider,
  type LogRecordExporter,
  type ReadableLogRecord,
  SimpleLogRecordProcessor,
} from '@opentelemetry/sdk-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeExportLogsResponse } from '../../src/modules/logging/otlp-protobuf.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { logStore } from './log-store.js';

/**
 * The official OpenTelemetry SDK exports to the gateway over OTLP/HTTP, as an application would:
 * both the JSON exporter and the protobuf exporter, gzip on and off.
 */
let gateway: TestGateway;
let store: ReturnType<typeof logStore>;
let baseUrl: string;
beforeAll(async () => {
  gateway = await startTestGateway();
  store = logStore(gateway);
  baseUrl = await gateway.listen();
});
afterAll(() => gateway.close());

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';

type Exporter = typeof JsonExporter | typeof ProtobufExporter;

/** Emits log records through an SDK logger provider and answers the export results. */
async function exportThrough(
  Exporter: Exporter,
  token: string,
  emit: (logger: ReturnType<LoggerProvider['getLogger']>) => void,
  compression: 'gzip' | 'none' = 'none',
): Promise<number[]> {
  const exporter = new Exporter({
    url: `${baseUrl}/v1/logs`,
    headers: { Authorization: `Bearer ${token}` },
    compression: compression as never,
  });
  const codes: number[] = [];
  const recording: LogRecordExporter = {
    export: (logs: ReadableLogRecord[], done) =>
      exporter.export(logs, (result) => {
        codes.push(result.code);
        done(result);
      }),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush(),
  };
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({ 'service.name': 'checkout', 'deployment.environment': 'test' }),
    processors: [new SimpleLogRecordProcessor({ exporter: recording })],
  });
  emit(provider.getLogger('payments', '1.2.0'));
  await provider.forceFlush();
  await provider.shutdown();
  return codes;
}

const withSpan = () =>
  trace.setSpanContext(context.active(), {
    traceId: TRACE_ID,
    spanId: SPAN_ID,
    traceFlags: TraceFlags.SAMPLED,
  });

describe.each([
  ['JSON', JsonExporter],
  ['protobuf', ProtobufExporter],
] as const)('OTLP/HTTP %s export', (_encoding, Exporter) => {
  it('stores the records with severity, body, attributes, resource, scope and trace context', async () => {
    const environment = await store.environment();
    const token = await store.token(environment.id);
    const timestamp = Date.now() - 5000;
    const codes = await exportThrough(Exporter, token, (logger) =>
      logger.emit({
        timestamp,
        severityNumber: SeverityNumber.ERROR,
        severityText: 'ERROR',
        body: 'card declined',
        attributes: { 'http.status_code': 402, retry: false, tags: ['a', 'b'], ratio: 0.5 },
        context: withSpan(),
      }),
    );
    expect(codes).toEqual([0]);
    const [record] = await store.records(environment.id);
    expect(record).toMatchObject({
      timestamp: new Date(timestamp).toISOString(),
      level: 'error',
      message: 'card declined',
      service: 'checkout',
      traceId: TRACE_ID,
      spanId: SPAN_ID,
      fields: {
        'http.status_code': 402,
        retry: false,
        tags: ['a', 'b'],
        ratio: 0.5,
        severityText: 'ERROR',
        'resource.service.name': 'checkout',
        'resource.deployment.environment': 'test',
        'scope.name': 'payments',
        'scope.version': '1.2.0',
      },
    });
  });

  it('maps severity numbers to levels and keeps structured bodies as JSON text', async () => {
    const environment = await store.environment();
    const token = await store.token(environment.id);
    await exportThrough(
      Exporter,
      token,
      (logger) => {
        logger.emit({ severityNumber: SeverityNumber.DEBUG2, body: 'debugging' });
        logger.emit({ severityNumber: SeverityNumber.WARN, body: { order: 7, items: [1, 2] } });
        logger.emit({ severityNumber: SeverityNumber.FATAL4, body: 'down' });
        logger.emit({ body: 'unspecified' });
      },
      'gzip',
    );
    const levels = Object.fromEntries((await store.records(environment.id)).map((r) => [r.message, r.level]));
    expect(levels).toEqual({
      debugging: 'debug',
      '{"order":7,"items":[1,2]}': 'warn',
      down: 'fatal',
      unspecified: 'info',
    });
  });

  it('fails the export with a wrong token, storing nothing', async () => {
    const environment = await store.environment();
    const codes = await exportThrough(Exporter, gateway.adminToken, (logger) => logger.emit({ body: 'x' }));
    expect(codes).toEqual([1]);
    expect(await store.records(environment.id)).toEqual([]);
  });
});

describe('OTLP/HTTP requests', () => {
  const post = (token: string | null, body: string | Buffer, contentType: string) =>
    gateway.call('POST', '/v1/logs', { token, rawBody: body, headers: { 'content-type': contentType } });

  it('reports rejected records as a partial success', async () => {
    const environment = await store.environment({ retentionDays: 1 });
    const token = await store.token(environment.id);
    const old = String(BigInt(Date.now() - 3 * 86_400_000) * 1_000_000n);
    const request = {
      resourceLogs: [
        {
          scopeLogs: [
            {
              logRecords: [
                { body: { stringValue: 'kept' } },
                { timeUnixNano: old, body: { stringValue: 'too old' } },
                { traceId: 'abc', body: { stringValue: 'bad trace' } },
              ],
            },
          ],
        },
      ],
    };
    const result = await post(token, JSON.stringify(request), 'application/json');
    expect(result.status).toBe(200);
    expect(result.body.partialSuccess.rejectedLogRecords).toBe('2');
    expect(result.body.partialSuccess.errorMessage).toContain('record 1 timestamp');
    expect(await store.records(environment.id)).toHaveLength(1);
  });

  it('answers an empty protobuf response when everything was accepted, partial success otherwise', async () => {
    expect(encodeExportLogsResponse(0, '')).toHaveLength(0);
    // field 1 (partial_success) { field 1: 2, field 2: "no" }
    expect([...encodeExportLogsResponse(2, 'no')]).toEqual([0x0a, 0x06, 0x08, 0x02, 0x12, 0x02, 0x6e, 0x6f]);
  });

  it('refuses a body that is not an OTLP request', async () => {
    const environment = await store.environment();
    const token = await store.token(environment.id);
    expectValidationError(await post(token, Buffer.from([0x0a, 0xff, 0xff]), 'application/x-protobuf'), []);
    expectValidationError(await post(token, '{"resourceLogs": ', 'application/json'), []);
    expectValidationError(await post(token, '{"resourceLogs": 5}', 'application/json'), ['resourceLogs']);
  });

  it('answers 401 without an ingest token and 415 to other content types', async () => {
    const environment = await store.environment();
    const token = await store.token(environment.id);
    expectError(await post(null, '{}', 'application/json'), 401, 'UNAUTHORIZED');
    expectError(await post(token, '{}', 'application/x-ndjson'), 415, 'VALIDATION_ERROR');
  });

  it('answers 413 past the environment record count', async () => {
    const environment = await store.environment({ ingest: { maxRecords: 1 } });
    const token = await store.token(environment.id);
    const logRecords = [{ body: { stringValue: 'a' } }, { body: { stringValue: 'b' } }];
    const result = await post(
      token,
      JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords }] }] }),
      'application/json',
    );
    expectError(result, 413, 'VALIDATION_ERROR');
  });
});
