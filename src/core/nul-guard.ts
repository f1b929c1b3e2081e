import type { FastifyInstance } from 'fastify';
import { type ValidationIssue, validationError } from './errors.js';

/** Only parsed JSON is walked: streams and buffers of raw uploads are not (and may be cyclic). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  // Query-string parsers build records on a prototype that itself has none.
  return prototype === Object.prototype || prototype === null || Object.getPrototypeOf(prototype) === null;
}

function findNul(value: unknown, path: (string | number)[], issues: ValidationIssue[]): void {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) issues.push({ path, message: 'must not contain the NUL character' });
  } else if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) findNul(item, [...path, index], issues);
  } else if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) findNul(item, [...path, key], issues);
  }
}

/**
 * PostgreSQL text cannot hold U+0000, and no field of this API has a use for it, so a NUL anywhere
 * in a JSON body, query string or path parameter is a validation error, not a database failure.
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const issues: ValidationIssue[] = [];
    findNul(request.params, [], issues);
    findNul(request.query, [], issues);
    findNul(request.body, [], issues);
    done(issues.length > 0 ? validationError(issues) : undefined);
  });
}
