import { AppError } from '../core/errors.js';

/** A failure the CLI reports as one line and a non-zero exit. */
export class CliError extends Error {}

/** Explains an AppError in one line (validation details included). */
export function describeError(error: unknown): string {
  if (error instanceof AppError) {
    const details = error.details as unknown;
    if (Array.isArray(details)) {
      return details
        .map(
          (issue: { path: unknown[]; message: string }) =>
            `${issue.path.join('.') || 'input'} ${issue.message}`,
        )
        .join('; ');
    }
    if (details && typeof details === 'object' && 'reason' in details) {
      const { reason, ...rest } = details as Record<string, unknown>;
      return `${error.message}: ${String(reason)} ${JSON.stringify(rest)}`;
    }
    return error.message;
  }
  if (error instanceof Error) {
    // Driver errors wrap the database's own message; that one is what a person can act on.
    const cause = error.cause instanceof Error ? error.cause.message : undefined;
    return cause && error.message.startsWith('Failed query') ? cause : error.message;
  }
  return String(error);
}
