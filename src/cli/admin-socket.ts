import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { type AdminContext, type CommandOutput, runAdminCommand } from './admin-commands.js';
import { CliError, describeError } from './cli-error.js';

/** Where a running server listens for CLI commands; file permissions (0600) are the access control. */
const adminSocketPath = (dataDir: string) => path.join(dataDir, 'infragate.sock');

interface RemoteRequest {
  argv: string[];
  stdin: string;
}

interface RemoteAnswer {
  ok: boolean;
  stdout?: string;
  error?: string;
}

/**
 * The embedded database can be open in one process only, so while the server runs it executes the
 * CLI's commands on the CLI's behalf over a unix socket in the data dir.
 */
export async function listenAdminSocket(
  dataDir: string,
  context: AdminContext,
): Promise<() => Promise<void>> {
  const socketPath = adminSocketPath(dataDir);
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    let answer: RemoteAnswer;
    try {
      const { argv, stdin } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RemoteRequest;
      const output = await runAdminCommand(context, argv, stdin);
      answer = { ok: true, stdout: output.stdout };
    } catch (error) {
      answer = { ok: false, error: describeError(error) };
    }
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(answer));
  });
  const previousMask = process.umask(0o177);
  try {
    await listenInPlaceOfAnother(server, socketPath);
  } finally {
    process.umask(previousMask);
  }
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      fs.rmSync(socketPath, { force: true });
    });
}

/**
 * Listens on `socketPath`, taking it over from a server that left it or still holds it: the CLI then
 * talks to the server started last. Two servers on one data dir (several processes on one
 * PostgreSQL) may both remove the file before either listens; the one that loses tries again.
 */
async function listenInPlaceOfAnother(server: http.Server, socketPath: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    fs.rmSync(socketPath, { force: true });
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(socketPath, () => {
          server.off('error', reject);
          resolve();
        });
      });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 3) throw error;
    }
  }
}

/** Sends a command to a running server; undefined when no server listens on the data dir's socket. */
export function runViaAdminSocket(
  dataDir: string,
  argv: string[],
  stdin: string,
): Promise<CommandOutput | undefined> {
  const socketPath = adminSocketPath(dataDir);
  if (!fs.existsSync(socketPath)) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const request = http.request({ socketPath, method: 'POST', path: '/run' }, async (response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of response) chunks.push(chunk as Buffer);
      const answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RemoteAnswer;
      if (answer.ok) resolve({ stdout: answer.stdout ?? '' });
      else reject(new CliError(answer.error ?? 'the server refused the command'));
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      // A socket file left by a killed server: nobody listens, so the CLI opens the database itself.
      if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') resolve(undefined);
      else reject(error);
    });
    request.end(JSON.stringify({ argv, stdin } satisfies RemoteRequest));
  });
}
