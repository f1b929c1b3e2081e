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

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}
