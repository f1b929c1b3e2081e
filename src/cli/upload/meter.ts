import { Transform } from 'node:stream';

/** Counts bytes on their way out and, with a rate limit, holds them back to that rate. */
export function meter(onBytes: (sent: number) => void, bytesPerSecond: number | undefined): Transform {
  const started = Date.now();
  let sent = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      sent += chunk.length;
      onBytes(sent);
      if (!bytesPerSecond) return callback(null, chunk);
      const due = started + (sent / bytesPerSecond) * 1000;
      setTimeout(() => callback(null, chunk), Math.max(0, due - Date.now()));
    },
  });
}
