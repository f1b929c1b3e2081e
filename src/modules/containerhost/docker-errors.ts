import { findEgressDenial } from '../../core/egress-guard.js';
import { AppError, conflict, notFound, unprocessable } from '../../core/errors.js';

// How the Docker Engine API's failures (dockerode's errors: statusCode, json, code) become the gateway's answers.

// biome-ignore lint/suspicious/noExplicitAny: engine errors are loosely shaped objects
type EngineFailure = any;

function engineMessage(error: EngineFailure): string {
  const json = error?.json;
  if (json && typeof json === 'object' && typeof json.message === 'string') return json.message;
  if (typeof json === 'string' && json.trim()) return json.trim();
  return String(error?.message ?? error);
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOENT',
  'EACCES',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
]);

/**
 * Podman's causes for what Docker answers 409 (or 403, for networks in use and built-in networks): a name
 * in use, a container in the wrong state, an object something else still uses, an image id with several
 * names (Docker: "must be forced").
 */
const PODMAN_CONFLICT_CAUSES = [
  /^container state improper$/,
  /^that name is already in use$/,
  /^(network|volume) already exists$/,
  /^(network|volume) is being used$/,
  /^image is in use by a container$/,
  /by ID with more than one tag .*please force removal$/,
];

function isEngineConflict(error: EngineFailure): boolean {
  const status = error?.statusCode;
  if (status === 409 || status === 403) return true;
  const cause = error?.json?.cause;
  return (
    status === 500 && typeof cause === 'string' && PODMAN_CONFLICT_CAUSES.some((known) => known.test(cause))
  );
}

/** An engine failure as the gateway answers it: 404, 409 (with the engine's words), or 422 with a reason. */
export function translateEngineError(error: EngineFailure, what: Record<string, unknown>): Error {
  if (error instanceof AppError) return error;
  const denial = findEgressDenial(error);
  if (denial) return unprocessable('EGRESS_DENIED', denial.message, { rule: denial.rule });
  const status = error?.statusCode;
  if (status === 404) return notFound({ ...what, engineMessage: engineMessage(error) });
  if (isEngineConflict(error))
    return conflict('ENGINE_CONFLICT', { explanation: engineMessage(error), engineStatus: status });
  if (typeof status === 'number')
    return unprocessable('ENGINE_REFUSED', engineMessage(error), { engineStatus: status });
  const code = error?.code ?? error?.cause?.code;
  if (code && UNREACHABLE_CODES.has(code))
    return unprocessable('ENGINE_UNREACHABLE', `the container engine could not be reached: ${code}`, {
      errno: code,
    });
  if (/timeout|timed out/i.test(String(error?.message)))
    return unprocessable('ENGINE_TIMEOUT', 'the container engine did not answer in time');
  return unprocessable(
    'ENGINE_UNREACHABLE',
    `the container engine could not be reached: ${engineMessage(error)}`,
  );
}
