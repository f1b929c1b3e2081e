import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from '../support/build.js';
import { eventually } from '../support/eventually.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { createNode, sha256, sha256OfFile, tempRoot } from './helpers.js';

const MIB = 1024 * 1024;
const projectDir = path.resolve(import.meta.dirname, '../..');

let gateway: TestGateway;
let baseUrl: string;
let root: string;
let node: { id: string; name: string };
let home: string;
let localDir: string;
let cli: string;

beforeAll(async () => {
  cli = await builtCli();
  gateway = await startTestGateway({ uploadChunkBytes: 1 * MIB, uploadMaxChunkBytes: 4 * MIB });
  baseUrl = await gateway.listen();
  root = tempRoot();
  node = await createNode(gateway, root);
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-home-'));
  localDir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-local-'));
});
afterAll(() => gateway.close());

interface CliRun {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/** Runs the real (built) CLI as a child process, talking to the gateway over HTTP. */
function runCli(args: string[], env: Record<string, string> = {}): CliRun {
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: projectDir,
    env: {
      ...process.env,
      HOME: home,
      INFRAGATE_URL: baseUrl,
      INFRAGATE_TOKEN: gateway.adminToken,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (data) => {
    stdout += data;
  });
  child.stderr!.on('data', (data) => {
    stderr += data;
  });
  const done = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
  }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

function randomFile(name: string, bytes: number): string {
  const file = path.join(localDir, name);
  fs.writeFileSync(file, crypto.randomBytes(bytes));
  return file;
}

async function openSessions(remotePath: string) {
  const result = await gateway.call('GET', `/api/nodes/${node.id}/files/uploads`, { query: { limit: 100 } });
  return (
    result.body.data as { uploadId: string; path: string; status: string; receivedBytes: number }[]
  ).filter((session) => session.path === remotePath);
}

describe('infragate upload', () => {
  it('uploads a file to a node named by name, with a progress bar on stderr', async () => {
    const file = randomFile('plain.bin', 3 * MIB + 123);
    const run = runCli(['upload', '--node', node.name, file, '/cli/plain.bin']);
    const result = await run.done;
    expect(result.stderr).toContain('ETA');
    expect(result.stderr).toMatch(/\d+%/);
    expect(result.stderr).toMatch(/\/s/);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('uploaded');
    expect(sha256OfFile(path.join(root, 'cli/plain.bin'))).toBe(sha256OfFile(file));
    expect(fs.readdirSync(path.join(home, '.infragate/uploads'))).toEqual([]);
  });

  it('resumes where the server stands after the client process was killed', async () => {
    const file = randomFile('resume.bin', 6 * MIB);
    const first = runCli(['upload', '--node', node.id, '--limit-rate', '2M', file, 'cli/resume.bin']);
    // Kill it once the server holds at least one durable chunk, but before the end.
    const killedAt = await eventually(async () => {
      const [session] = await openSessions('cli/resume.bin');
      return session && session.receivedBytes >= MIB && session.receivedBytes;
    }, 'a durable chunk');
    first.child.kill('SIGKILL');
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');
    expect(killedAt).toBeLessThan(6 * MIB);
    expect(fs.existsSync(path.join(root, 'cli/resume.bin'))).toBe(false);

    const second = await runCli(['upload', '--node', node.id, file, 'cli/resume.bin']).done;
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/resuming upload .* at byte \d+/);
    const resumedAt = Number(/at byte (\d+)/.exec(second.stderr)![1]);
    expect(resumedAt).toBeGreaterThanOrEqual(killedAt);
    expect(sha256OfFile(path.join(root, 'cli/resume.bin'))).toBe(sha256OfFile(file));
    const sessions = await openSessions('cli/resume.bin');
    expect(sessions.map((session) => session.status)).toEqual(['complete']);
  });

  it('refuses to replace an existing remote file unless --overwrite is given', async () => {
    const file = randomFile('twice.txt', 10);
    expect((await runCli(['upload', '--node', node.name, file, 'cli/twice.txt']).done).code).toBe(0);
    const refused = await runCli(['upload', '--node', node.name, file, 'cli/twice.txt']).done;
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('FILE_EXISTS');
    fs.writeFileSync(file, 'changed!!!');
    const replaced = await runCli(['upload', '--overwrite', '--node', node.name, file, 'cli/twice.txt']).done;
    expect(replaced.code).toBe(0);
    expect(sha256OfFile(path.join(root, 'cli/twice.txt'))).toBe(sha256('changed!!!'));
  });

  it('exits 1 with one line when the token is missing or the node unknown', async () => {
    const file = randomFile('small.txt', 5);
    const noToken = await runCli(['upload', '--node', node.name, file, 'x.txt'], { INFRAGATE_TOKEN: '' })
      .done;
    expect(noToken.code).toBe(1);
    expect(noToken.stderr.trim()).toBe('infragate: set INFRAGATE_TOKEN or pass --token');
    const unknown = await runCli(['upload', '--node', 'no-such-node', file, 'x.txt']).done;
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no node named no-such-node');
  });
});
