import fs from 'node:fs';
import net from 'node:net';

/**
 * Finds a peer's binary. When it is missing a suite skips with the reason locally, and fails under
 * CI=true, where scripts/install-test-deps.sh must have installed it.
 */
export function findBinary(name: string, candidates: string[]): { path?: string; skipReason?: string } {
  const found = [...candidates, ...(process.env.PATH ?? '').split(':').map((dir) => `${dir}/${name}`)].find(
    (candidate) => fs.existsSync(candidate),
  );
  if (found) return { path: found };
  const reason = `${name} is not installed (run scripts/install-test-deps.sh)`;
  if (process.env.CI === 'true') throw new Error(`CI=true and ${reason}`);
  return { skipReason: reason };
}

/** A free TCP port on loopback (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Starts a test peer's server on a free loopback port and answers the port. */
export async function listenOnLoopback(server: net.Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return (server.address() as net.AddressInfo).port;
}
