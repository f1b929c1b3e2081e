import { conflict } from './errors.js';

/** True when a database error, however wrapped, carries this SQLSTATE. */
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

/** True when a database error is a unique-constraint violation (SQLSTATE 23505), however wrapped. */
export const isUniqueViolation = (error: unknown) => hasSqlState(error, '23505');

/**
 * True when a database error is a foreign-key violation: a reference to a row that is gone, or a
 * delete of a row still referenced (SQLSTATE 23503, or 23001 for `on delete restrict`).
 */
export const isForeignKeyViolation = (error: unknown) =>
  hasSqlState(error, '23503') || hasSqlState(error, '23001');

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
