/**
 * Polls until `check` returns a truthy value and answers it; a thrown error counts as "not yet".
 * Used to wait for peers to start and for background work to happen (never to measure time).
 */
export async function eventually<T>(
  check: () => Promise<T> | T,
  what = 'condition',
  timeoutMs = 20_000,
): Promise<Exclude<NonNullable<T>, false | 0 | ''>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value) return value as Exclude<NonNullable<T>, false | 0 | ''>;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${what} did not happen within ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
}
