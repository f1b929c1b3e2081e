import { conflict } from './errors.js';

/** True when a database error is a unique-constraint violation (SQLSTATE 23505), however wrapped. */
export function isUniqueViolation(error: unknown): boolean {
  for (
    let current = error;
    current instanceof Error || isObject(current);
    current = (current as Error).cause
  ) {
    if ((current as { code?: unknown }).code === '23505') return true;
    if (!(current as Error).cause) break;
  }
  return false;
}

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
