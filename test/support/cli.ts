import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../../src/config.js';
import { freePort } from '../services/peers.js';
import { builtCli } from './build.js';
import { startTestGateway } from './gateway.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a program to its end, feeding it `stdin`, and collects what it wrote. */
function runToEnd(
  command: string,
  args: string[],
  env: Record<string, string>,
  stdin: string,
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/** Runs `infragate <args>` as an operator would (the built CLI), with its own environment. */
export async function runCli(
  args: string[],
  env: Record<string, string>,
  stdin?: string,
): Promise<CliResult> {
  return runToEnd(process.execPath, [await builtCli(), ...args], env, stdin ?? '');
}

/** Makes an admin with a password through the local `users create` (the database of `env`); throws if it fails. */
export async function createAdminWithCli(env: Record<string, string>, email: string, password: string) {
  const created = await runCli(
    ['users', 'create', '--email', email, '--name', 'Ops', '--group', 'admins', '--password-stdin'],
    env,
    `${password}\n`,
  );
  if (created.code !== 0) throw new Error(`users create exited ${created.code}: ${created.stderr}`);
}

/** A CLI process still running: what it wrote so far, and its exit code once it ended. */
export interface RunningCli {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

/** Starts `infragate <args>`; its output can be read as it comes. */
export async function startCli(args: string[], env: Record<string, string>): Promise<RunningCli> {
  const child = spawn(process.execPath, [await builtCli(), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Quotes a word for `sh -c`. */
const shellWord = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * Runs `infragate <args>` with its standard streams on a pseudo-terminal (util-linux `script`), as
 * a person at a terminal would see it: tables instead of JSON, a progress bar redrawn in place.
 * Everything it wrote arrives as `stdout`, with terminal line ends (`\r\n`).
 */
export async function runCliInTerminal(args: string[], env: Record<string, string>): Promise<CliResult> {
  const command = [process.execPath, await builtCli(), ...args].map(shellWord).join(' ');
  return runToEnd('script', ['-qec', command, '/dev/null'], { ...env, COLUMNS: '200' }, '');
}

/**
 * The environment of a CLI run against a gateway: its URL and token, and a config home of its own
 * so no saved login of the person running the tests is read or written.
 */
export function apiCliEnv(baseUrl: string, token: string): Record<string, string> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-cli-home-'));
  return {
    INFRAGATE_URL: baseUrl,
    INFRAGATE_TOKEN: token,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
  };
}

/** A real `infragate serve` in its own process (the built CLI, as `npm start` runs it). */
export interface ServeProcess {
  child: ChildProcess;
  baseUrl: string;
  /** The first-start admin token, when this start printed one. */
  firstToken: string | undefined;
  /** The first-start console setup link (`…/setup?code=…`), when this start printed one. */
  setupLink: string | undefined;
  output(): string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read response bodies freely
  call(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Stops the server (SIGTERM unless told otherwise) and answers its exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts `infragate serve` on loopback (a free port unless `PORT` is given, egress open to loopback
 * peers) and resolves once it printed its ready lines.
 */
export async function startServeProcess(env: Record<string, string>): Promise<ServeProcess> {
  const port = env.PORT ?? String(await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [await builtCli(), 'serve'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      INFRAGATE_EGRESS: 'any',
      LOG_LEVEL: 'warn',
      ...env,
      PORT: port,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      printed += chunk.toString();
      if (printed.includes('API docs:')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${printed}`)));
  });
  return {
    child,
    baseUrl,
    firstToken: /\b(igw_[A-Za-z0-9_-]{43})/.exec(printed)?.[1],
    setupLink: /(http:\/\/\S+\/setup\?code=[A-Za-z0-9_-]+)/.exec(printed)?.[1],
    output: () => printed,
    async call(method, path, token, body) {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    stop: (signal) => stopProcess(child, signal),
  };
}

/** Stops a child process and waits for it to exit. */
function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill(signal);
  });
}

/** The CLI as a gateway's admin would run it against `baseUrl`; `json` also checks the exit code. */
export function apiCli(baseUrl: string, token: string) {
  const env = apiCliEnv(baseUrl, token);
  const run = (args: string[], stdin?: string) => runCli(args, env, stdin);
  return {
    env,
    run,
    // biome-ignore lint/suspicious/noExplicitAny: tests read answers freely
    async json(args: string[], stdin?: string): Promise<any> {
      const result = await run(args, stdin);
      if (result.code !== 0)
        throw new Error(`infragate ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
      return JSON.parse(result.stdout);
    },
    terminal: (args: string[]) => runCliInTerminal(args, env),
    start: (args: string[]) => startCli(args, env),
  };
}

/** A listening test gateway and the CLI of its admin, for the CLI suites. */
export async function gatewayWithCli(overrides: Partial<Config> = {}) {
  const gateway = await startTestGateway(overrides);
  const baseUrl = await gateway.listen();
  return { gateway, baseUrl, cli: apiCli(baseUrl, gateway.adminToken) };
}

/** What `apiCli` answers. */
export type ApiCli = ReturnType<typeof apiCli>;
