/**
 * The error answers of /openapi.json: which statuses each operation documents, and the shared
 * response objects (all with the `Error` envelope) they refer to.
 */
import { ERROR_MESSAGE } from '../errors.js';

/** Error answers a route lists in `config.errors` beyond those that follow from its shape. */
export type DeclaredErrorStatus = 400 | 401 | 404 | 409 | 413 | 415 | 422 | 429 | 503;

/** Where a route's declared errors travel from the per-route transform to the whole-document one. */
export const CARRIED_ERRORS = 'x-infragate-errors';

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI objects are plain JSON
type Json = any;

const ERROR_RESPONSES: Record<number, { name: string; description: string }> = {
  400: {
    name: 'BadRequest',
    description: 'VALIDATION_ERROR: a parameter or the body is invalid (`details` lists each problem)',
  },
  401: { name: 'Unauthorized', description: 'UNAUTHORIZED: no valid token or session' },
  403: { name: 'Forbidden', description: 'FORBIDDEN: the caller lacks the required scope' },
  404: { name: 'NotFound', description: 'NOT_FOUND: a resource the path or the body names does not exist' },
  409: {
    name: 'Conflict',
    description: 'CONFLICT: the change collides with the current state (`details.reason` says how)',
  },
  413: {
    name: 'PayloadTooLarge',
    description: 'VALIDATION_ERROR: the body is larger than the gateway accepts',
  },
  415: {
    name: 'UnsupportedMediaType',
    description: 'VALIDATION_ERROR: the body has a content type this operation does not take',
  },
  422: {
    name: 'UnprocessableEntity',
    description:
      'UNPROCESSABLE_ENTITY: well formed, but cannot be carried out (`details.reason`, `details.explanation`)',
  },
  429: {
    name: 'TooManyRequests',
    description:
      'UNPROCESSABLE_ENTITY with `details.reason` RATE_LIMITED: over a rate limit; `Retry-After` says when to retry',
  },
  503: {
    name: 'ServiceUnavailable',
    description: 'INTERNAL_ERROR: the gateway cannot serve now (its database does not answer)',
  },
};

const BODILESS_METHODS = new Set(['get', 'head']);

/**
 * The error statuses an operation answers: 400 when it takes parameters or a body, 401 and 403 when
 * it needs a scope (401 alone for a route checking a token of its own), 404 when its path names a
 * resource, 400, 413 and 415 for a body it may be sent, and what its route declares. Fastify parses
 * the body of every method but GET and HEAD, so a POST documenting none still refuses a malformed,
 * oversized or non-JSON one.
 */
function errorStatuses(path: string, method: string, operation: Json): number[] {
  const statuses = new Set<number>(operation[CARRIED_ERRORS] ?? []);
  if (operation.parameters?.length) statuses.add(400);
  if (operation.security?.length) statuses.add(401);
  if (operation['x-required-scope']) statuses.add(403);
  if (path.includes('{')) statuses.add(404);
  if (operation.requestBody || !BODILESS_METHODS.has(method)) {
    statuses.add(400);
    statuses.add(413);
    statuses.add(415);
  }
  return [...statuses].sort((a, b) => a - b);
}

/** Adds the error answers to each operation; answers the statuses any operation refers to. */
export function addErrorAnswers(
  operations: { path: string; method: string; operation: Json }[],
): Set<number> {
  const answered = new Set<number>();
  for (const { path, method, operation } of operations) {
    for (const status of errorStatuses(path, method, operation)) {
      const known = ERROR_RESPONSES[status];
      if (!known) throw new Error(`${path}: no shared error answer for ${status}`);
      answered.add(status);
      operation.responses[status] = { $ref: `#/components/responses/${known.name}` };
    }
    delete operation[CARRIED_ERRORS];
  }
  return answered;
}

/** The shared error answers some operation refers to, and the envelope they carry. */
export function errorComponents(answered: Set<number>): { responses: Json; schemas: Json } {
  const responses = Object.fromEntries(
    [...answered]
      .sort((a, b) => a - b)
      .map((status) => ERROR_RESPONSES[status]!)
      .map(({ name, description }) => [
        name,
        { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      ]),
  );
  const schemas = {
    Error: {
      type: 'object',
      description: 'The envelope of every error answer',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: Object.keys(ERROR_MESSAGE) },
        message: { type: 'string' },
        details: {
          description: 'VALIDATION_ERROR: one entry per problem; other codes: `reason` and `explanation`',
          anyOf: [
            { type: 'array', items: { $ref: '#/components/schemas/ValidationIssue' } },
            {
              type: 'object',
              properties: { reason: { type: 'string' }, explanation: { type: 'string' } },
              additionalProperties: true,
            },
          ],
        },
      },
    },
    ValidationIssue: {
      type: 'object',
      required: ['path', 'message'],
      properties: {
        path: {
          type: 'array',
          items: { type: ['string', 'integer'] },
          description: 'Where the problem is',
        },
        message: { type: 'string' },
        in: { type: 'string', description: 'params, querystring or headers; absent for the body' },
      },
    },
  };
  return { responses, schemas };
}
