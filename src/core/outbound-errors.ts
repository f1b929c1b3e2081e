import { findEgressDenial } from './egress-guard.js';
import { AppError, unprocessable } from './errors.js';

/** Maps an outbound failure to a 422 that names what went wrong; OAuth server errors are handled by callers. */
export function outboundFailure(error: unknown, what: string): AppError {
  if (error instanceof AppError) return error;
  const denial = findEgressDenial(error);
  if (denial)
    return unprocessable('EGRESS_DENIED', `the egress policy refused ${what}: ${denial.rule}`, {
      host: denial.host,
    });
  const cause = error instanceof Error ? (error.cause instanceof Error ? error.cause : error) : undefined;
  return unprocessable(
    'PROVIDER_UNREACHABLE',
    `${what} failed: ${cause?.message ?? 'no answer from the provider'}`,
  );
}

/** oauth4webapi refuses answers that break the protocol (bad token response, wrong issuer…). */
export function isProtocolViolation(error: unknown): error is Error {
  return (
    error instanceof Error &&
    (error.name === 'OperationProcessingError' || error.name === 'UnsupportedOperationError')
  );
}
