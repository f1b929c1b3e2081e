import { conflict } from './errors.js';

/** True when a database error carries this SQLSTATE, however the driver or ORM wrapped it. */
export function hasSqlState(error: unknown, code: string): boolean {
  for (
    let current = error;
    current instanceof Error || isObject(current);
    current = (current as Error).cause
  ) {
    if ((current as { code?: unknown }).code === code) return true;
    if (!(current as Error).cause) break;
  }
  return false;
}

/** True when a database error is a unique-constraint violation (SQLSTATE 23505). */
export const isUniqueViolation = (error: unknown): boolean => hasSqlState(error, '23505');

/**
 * Awaits a write and answers 409 CONFLICT (`reason` + `detail`) when it breaks a unique
 * constraint. The constraint decides, not a prior read, so two concurrent writers of the same
 * name get one success and one 409 rather than a 500.
 */
export async function conflictOnDuplicate<T>(
  write: PromiseLike<T>,
  reason: string,
  detail?: Record<string, unknown>,
): Promise<T> {
  try {
    return await write;
  } catch (error) {
    throw isUniqueViolation(error) ? conflict(reason, detail) : error;
  }
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}
