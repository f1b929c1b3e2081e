import type { FastifyInstance } from 'fastify';
import { type ValidationIssue, validationError } from './errors.js';
import { unstorableText } from './storable-text.js';

/** No field of this API nests anywhere near this deep; a deeper body is refused before it is walked. */
export const MAX_INPUT_DEPTH = 64;

/** Only parsed JSON is walked: streams and buffers of raw uploads are not (and may be cyclic). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  // Query-string parsers build records on a prototype that itself has none.
  return prototype === Object.prototype || prototype === null || Object.getPrototypeOf(prototype) === null;
}

const PROTOTYPE_KEY_REASON = 'is refused: the key could alter object prototypes (prototype poisoning)';

/** `__proto__` and `constructor.prototype` keys are what prototype-pollution attacks send. */
function prototypeKeys(record: Record<string, unknown>, path: (string | number)[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (Object.hasOwn(record, '__proto__'))
    issues.push({ path: [...path, '__proto__'], message: `"__proto__" ${PROTOTYPE_KEY_REASON}` });
  const constructorValue = Object.hasOwn(record, 'constructor') ? record.constructor : undefined;
  if (
    constructorValue !== null &&
    typeof constructorValue === 'object' &&
    Object.hasOwn(constructorValue, 'prototype')
  )
    issues.push({
      path: [...path, 'constructor'],
      message: `"constructor.prototype" ${PROTOTYPE_KEY_REASON}`,
    });
  return issues;
}

const NO_ISSUES: ValidationIssue[] = [];

/** Most requests have no query string or path parameters: nothing to walk. */
function isEmptyRecord(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  for (const _ in value) return false;
  return true;
}

interface Pending {
  value: unknown;
  path: (string | number)[];
  depth: number;
}

/**
 * Walks one parsed input without recursion (a hostile body cannot exhaust the stack): refuses it
 * whole when it nests deeper than {@link MAX_INPUT_DEPTH}, else names every string and key the
 * database could not store and every prototype-poisoning key.
 */
function inspect(input: unknown, location: string): ValidationIssue[] {
  if (input === undefined || input === null || isEmptyRecord(input)) return NO_ISSUES;
  const issues: ValidationIssue[] = [];
  const pending: Pending[] = [{ value: input, path: [], depth: 0 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, path, depth } = next;
    if (typeof value === 'string') {
      const problem = unstorableText(value);
      if (problem) issues.push({ path, message: problem });
      continue;
    }
    const children = Array.isArray(value)
      ? value.entries()
      : isPlainObject(value)
        ? Object.entries(value).values()
        : undefined;
    if (!children) continue;
    const isRecord = !Array.isArray(value);
    if (isRecord) issues.push(...prototypeKeys(value as Record<string, unknown>, path));
    if (depth === MAX_INPUT_DEPTH)
      return [{ path: [], message: `${location} is nested deeper than ${MAX_INPUT_DEPTH} levels` }];
    const entries = [...children];
    for (const [key] of isRecord ? entries : []) {
      const problem = unstorableText(key as string);
      if (problem) issues.push({ path: [...path, key], message: `has a key that ${problem}` });
    }
    // Pushed last-first so the walk visits children in document order.
    for (const [key, item] of entries.reverse())
      pending.push({ value: item, path: [...path, key], depth: depth + 1 });
  }
  return issues;
}

/**
 * PostgreSQL text cannot hold U+0000 nor an unpaired UTF-16 surrogate, and no field of this API has a
 * use for them, so one anywhere in a JSON body, query string or path parameter (a value or a key) is
 * a validation error, not a database failure: before, a refused login's audit event failed to store
 * and the login answered 500.
 * Prototype-poisoning keys are refused the same way. Inputs are also bounded in depth, so neither
 * this walk nor a later one can be driven into a stack overflow.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const inPath = inspect(request.params, 'path');
    const inQuery = inspect(request.query, 'query string');
    const inBody = inspect(request.body, 'body');
    const found = inPath.length + inQuery.length + inBody.length;
    done(found > 0 ? validationError([...inPath, ...inQuery, ...inBody]) : undefined);
  });
}
