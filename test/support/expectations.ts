import { expect } from 'vitest';
import type { CallResult } from './gateway.js';

/** The contract's error envelope with the given code, and the status that goes with it. */
export function expectError(result: CallResult, status: number, code: string): void {
  expect({ status: result.status, code: result.body?.code }).toEqual({ status, code });
  expect(typeof result.body.message).toBe('string');
  expect(Object.keys(result.body).filter((key) => !['code', 'message', 'details'].includes(key))).toEqual([]);
}

/** A 400 VALIDATION_ERROR whose details point at `path`. */
export function expectValidationError(result: CallResult, path: (string | number)[]): void {
  expectError(result, 400, 'VALIDATION_ERROR');
  const paths = (result.body.details as { path: unknown[] }[]).map((issue) => JSON.stringify(issue.path));
  expect(paths).toContain(JSON.stringify(path));
}
