import zlib from 'node:zlib';
import { expect } from 'vitest';
import type { CallResult, TestGateway } from '../support/gateway.js';
import { unique } from './helpers.js';

/** Drives the log store of a test gateway: environments, ingest tokens, ingest and search. */
export function logStore(gateway: TestGateway) {
  const created = async (url: string, body: Record<string, unknown>) => {
    const result = await gateway.call('POST', url, { body });
    expect(result.status, result.text).toBe(201);
    return result.body.data;
  };
  return {
    /** A new environment (admin token), with the settings given. */
    environment: (settings: Record<string, unknown> = {}) =>
      created('/api/logging/environments', { name: unique('env'), ...settings }),
    schema: (fields: Record<string, unknown>[]) =>
      created('/api/logging/schemas', { name: unique('schema'), fields }),
    /** A new ingest token's secret for the environment. */
    async token(environmentId: string, name = unique('token')): Promise<string> {
      return (await created(`/api/logging/environments/${environmentId}/tokens`, { name })).token;
    },
    /** POST /api/logging/ingest with the body as given (objects as JSON, strings as NDJSON). */
    ingest(
      token: string | null,
      body: unknown,
      options: { contentType?: string; gzip?: boolean; headers?: Record<string, string> } = {},
    ): Promise<CallResult> {
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      const contentType =
        options.contentType ?? (typeof body === 'string' ? 'application/x-ndjson' : 'application/json');
      return gateway.call('POST', '/api/logging/ingest', {
        token,
        rawBody: options.gzip ? zlib.gzipSync(text) : text,
        headers: {
          'content-type': contentType,
          ...(options.gzip ? { 'content-encoding': 'gzip' } : {}),
          ...options.headers,
        },
      });
    },
    /** Every record of the environment that a search with this query finds, following cursors. */
    async records(environmentId: string, query: Record<string, string | number> = {}) {
      const result = await gateway.call('GET', `/api/logging/environments/${environmentId}/records`, {
        query: { limit: 1000, ...query },
      });
      expect(result.status, result.text).toBe(200);
      return result.body.data as Record<string, unknown>[];
    },
  };
}

/** NDJSON of these records. */
export const ndjson = (records: unknown[]) => records.map((record) => JSON.stringify(record)).join('\n');
