/**
 * A failure in words that are safe to store and show: the messages of the error and up to two of its
 * causes (fetch and socket errors hide the useful part in `cause`), with their error codes, cut to
 * `max` characters. Callers make sure no credential is part of a message they throw.
 */
export function describeError(error: unknown, max = 500): string {
  const parts: string[] = [];
  for (let current = error; current instanceof Error && parts.length < 3; current = current.cause) {
    const code = (current as NodeJS.ErrnoException).code;
    parts.push(code && !current.message.includes(code) ? `${current.message} (${code})` : current.message);
  }
  return (parts.join(': ') || String(error)).slice(0, max);
}
