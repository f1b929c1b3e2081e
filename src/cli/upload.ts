import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { isUuid } from '../core/ids.js';
import type { Upload } from '../modules/nodes/schemas.js';
import { CliError } from './admin-commands.js';

/**
 * `infragate upload --node <name|id> <local-file> <remote-path>`: a client of the HTTP API (it does not
 * open the database). It creates an upload session, sends the file in chunks with a progress bar on
 * stderr, and remembers the session in ~/.infragate/uploads/ so an interrupted run resumes where
 * the server's durable `receivedBytes` says.
 */

const UPLOAD_USAGE = `usage: infragate upload --node <name|id> [options] <local-file> <remote-path>

  --url URL          gateway base URL (default: $INFRAGATE_URL)
  --token TOKEN      API token with nodes:manage (default: $INFRAGATE_TOKEN)
  --overwrite        replace an existing file at <remote-path>
  --chunk-size N     bytes per chunk (default: the server's suggestion; suffixes K, M, G)
  --limit-rate R     send at most R bytes per second (suffixes K, M, G)
  --no-checksum      do not send the file's SHA-256 for verification
  --restart          forget a remembered session and start over
`;

/** The upload session as the API answers it (the CLI reads only these fields). */
type UploadSession = Pick<
  Upload,
  | 'uploadId'
  | 'nodeId'
  | 'path'
  | 'totalBytes'
  | 'receivedBytes'
  | 'chunkSize'
  | 'maxChunkBytes'
  | 'sha256'
  | 'status'
>;

interface SavedState {
  uploadId: string;
  size: number;
  mtimeMs: number;
}

interface ApiError {
  status: number;
  code?: string;
  message?: string;
  details?: Record<string, unknown> | unknown[];
}

const MAX_ATTEMPTS = 8;

function parseByteSize(text: string, option: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([KMG]i?B?|B)?$/i.exec(text.trim());
  if (!match) throw new CliError(`${option} takes a size such as 65536, 512K, 8M or 1G`);
  const unit = (match[2] ?? '').charAt(0).toUpperCase();
  const factor = unit === 'K' ? 1024 : unit === 'M' ? 1024 ** 2 : unit === 'G' ? 1024 ** 3 : 1;
  const value = Math.floor(Number(match[1]) * factor);
  if (value <= 0) throw new CliError(`${option} must be positive`);
  return value;
}

function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--:--';
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** The progress bar: redrawn in place on a terminal, a line per second otherwise. */
class Progress {
  private readonly startedAt = Date.now();
  private lastDraw = 0;
  private lastDrawnBytes = -1;
  private done: number;
  private readonly startBytes: number;

  constructor(
    private readonly total: number,
    start: number,
    private readonly out: NodeJS.WriteStream = process.stderr,
  ) {
    this.done = start;
    this.startBytes = start;
  }

  set(bytes: number): void {
    this.done = bytes;
    this.draw(false);
  }

  finish(): void {
    this.draw(true);
    if (this.out.isTTY) this.out.write('\n');
  }

  private draw(force: boolean): void {
    const now = Date.now();
    if (!force && now - this.lastDraw < (this.out.isTTY ? 100 : 1000)) return;
    if (force && !this.out.isTTY && this.lastDrawnBytes === this.done) return;
    this.lastDraw = now;
    this.lastDrawnBytes = this.done;
    const elapsed = Math.max((now - this.startedAt) / 1000, 0.001);
    const rate = (this.done - this.startBytes) / elapsed;
    const fraction = this.total === 0 ? 1 : this.done / this.total;
    const width = 24;
    const filled = Math.round(fraction * width);
    const eta = rate > 0 ? (this.total - this.done) / rate : Number.POSITIVE_INFINITY;
    const line =
      `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.floor(fraction * 100)).padStart(3)}%  ` +
      `${formatBytes(this.done)} / ${formatBytes(this.total)}  ${formatBytes(rate)}/s  ETA ${formatDuration(eta)}`;
    this.out.write(this.out.isTTY ? `\r${line}\x1b[K` : `${line}\n`);
  }
}

/** Counts bytes on their way out and, with a rate limit, holds them back to that rate. */
function meter(onBytes: (sent: number) => void, bytesPerSecond: number | undefined): Transform {
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

class Api {
  constructor(
    private readonly base: string,
    private readonly token: string,
  ) {}

  async call<T>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    route: string,
    options: { json?: unknown; body?: NodeJS.ReadableStream; length?: number } = {},
  ): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}` };
    let body: string | NodeJS.ReadableStream | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.body) {
      headers['content-type'] = 'application/octet-stream';
      headers['content-length'] = String(options.length);
      body = options.body;
    }
    const response = await request(`${this.base}${route}`, {
      method,
      headers,
      body: body as string,
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    const text = await response.body.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      // not JSON: reported below with the status
    }
    if (response.statusCode >= 400) {
      throw Object.assign(new Error(String(parsed.message ?? `HTTP ${response.statusCode}`)), {
        api: { status: response.statusCode, ...parsed } as ApiError,
      });
    }
    return parsed as T;
  }
}

function apiError(error: unknown): ApiError | undefined {
  return (error as { api?: ApiError }).api;
}

function reasonOf(error: unknown): string | undefined {
  const details = apiError(error)?.details;
  return details && !Array.isArray(details) ? (details.reason as string | undefined) : undefined;
}

function describeApiError(error: unknown): string {
  const api = apiError(error);
  if (!api) return error instanceof Error ? error.message : String(error);
  const details = Array.isArray(api.details)
    ? api.details
        .map(
          (issue) =>
            `${(issue as { path: unknown[] }).path.join('.')} ${(issue as { message: string }).message}`,
        )
        .join('; ')
    : api.details
      ? [api.details.reason, api.details.explanation].filter(Boolean).join(': ') ||
        JSON.stringify(api.details)
      : '';
  return `${api.status} ${api.code ?? ''} ${api.message ?? ''}${details ? `: ${details}` : ''}`.trim();
}

async function sha256Of(file: string, size: number): Promise<string> {
  const hash = crypto.createHash('sha256');
  const progress = new Progress(size, 0);
  process.stderr.write('computing SHA-256…\n');
  let done = 0;
  for await (const data of fs.createReadStream(file, { highWaterMark: 1024 * 1024 })) {
    hash.update(data as Buffer);
    done += (data as Buffer).length;
    progress.set(done);
  }
  progress.finish();
  return hash.digest('hex');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runUpload(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      node: { type: 'string' },
      url: { type: 'string' },
      token: { type: 'string' },
      overwrite: { type: 'boolean' },
      'chunk-size': { type: 'string' },
      'limit-rate': { type: 'string' },
      'no-checksum': { type: 'boolean' },
      restart: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) return UPLOAD_USAGE.trimEnd();
  if (!values.node) throw new CliError('upload needs --node <name|id>');
  if (positionals.length !== 2) throw new CliError('upload needs <local-file> <remote-path>');
  const baseUrl = (values.url ?? env.INFRAGATE_URL ?? '').replace(/\/+$/, '');
  const token = values.token ?? env.INFRAGATE_TOKEN;
  if (!baseUrl) throw new CliError('set INFRAGATE_URL or pass --url');
  if (!token) throw new CliError('set INFRAGATE_TOKEN or pass --token');
  const [localArg, remotePath] = positionals as [string, string];
  const localFile = await fsp.realpath(localArg).catch(() => {
    throw new CliError(`${localArg} does not exist`);
  });
  const stat = await fsp.stat(localFile);
  if (!stat.isFile()) throw new CliError(`${localArg} is not a regular file`);
  const chunkOverride = values['chunk-size']
    ? parseByteSize(values['chunk-size'], '--chunk-size')
    : undefined;
  const rate = values['limit-rate'] ? parseByteSize(values['limit-rate'], '--limit-rate') : undefined;

  const api = new Api(baseUrl, token);
  const node = await findNode(api, values.node);
  const uploadsRoute = `/api/nodes/${node.id}/files/uploads`;

  // The remembered session for this (gateway, node, local file, remote path).
  const stateDir = path.join(os.homedir(), '.infragate', 'uploads');
  const stateKey = crypto
    .createHash('sha256')
    .update(JSON.stringify([baseUrl, node.id, localFile, remotePath]))
    .digest('hex')
    .slice(0, 32);
  const stateFile = path.join(stateDir, `${stateKey}.json`);
  const forget = () => fsp.rm(stateFile, { force: true });
  if (values.restart) await forget();

  let session: UploadSession | undefined;
  const saved = await fsp
    .readFile(stateFile, 'utf8')
    .then((text) => JSON.parse(text) as SavedState)
    .catch(() => undefined);
  if (saved && saved.size === stat.size && saved.mtimeMs === stat.mtimeMs) {
    try {
      const found = (await api.call<{ data: UploadSession }>('GET', `${uploadsRoute}/${saved.uploadId}`))
        .data;
      if (found.status === 'complete') {
        await forget();
        return `already uploaded: ${localArg} → ${node.name}:${found.path} (${found.totalBytes} bytes)`;
      }
      if (found.status === 'open') session = found;
    } catch (error) {
      if (apiError(error)?.status !== 404) throw new CliError(describeApiError(error));
    }
    if (session)
      process.stderr.write(`resuming upload ${session.uploadId} at byte ${session.receivedBytes}\n`);
  } else if (saved) {
    // The local file changed since: its old session cannot be continued.
    await api.call('DELETE', `${uploadsRoute}/${saved.uploadId}`).catch(() => undefined);
    await forget();
  }

  if (!session) {
    const sha256 = values['no-checksum'] ? undefined : await sha256Of(localFile, stat.size);
    try {
      session = (
        await api.call<{ data: UploadSession }>('POST', uploadsRoute, {
          json: { path: remotePath, totalBytes: stat.size, sha256, overwrite: Boolean(values.overwrite) },
        })
      ).data;
    } catch (error) {
      if (reasonOf(error) === 'UPLOAD_EXISTS') {
        const other = (apiError(error)!.details as { uploadId?: string }).uploadId;
        throw new CliError(
          `another upload session (${other}) is open for this path; abort it with DELETE ${uploadsRoute}/${other} or wait for it`,
        );
      }
      throw new CliError(describeApiError(error));
    }
    await fsp.mkdir(stateDir, { recursive: true, mode: 0o700 });
    await fsp.writeFile(
      stateFile,
      JSON.stringify({
        uploadId: session.uploadId,
        size: stat.size,
        mtimeMs: stat.mtimeMs,
      } satisfies SavedState),
      { mode: 0o600 },
    );
  }

  const chunkSize = Math.min(chunkOverride ?? session.chunkSize, session.maxChunkBytes);
  const sessionRoute = `${uploadsRoute}/${session.uploadId}`;
  const started = Date.now();
  const startBytes = session.receivedBytes;
  const progress = new Progress(session.totalBytes, session.receivedBytes);
  let received = session.receivedBytes;
  let status = session.status;
  let failures = 0;
  while (received < session.totalBytes) {
    const end = Math.min(received + chunkSize, session.totalBytes);
    const from = received;
    try {
      const body = fs
        .createReadStream(localFile, { start: from, end: end - 1, highWaterMark: 64 * 1024 })
        .pipe(meter((sent) => progress.set(from + sent), rate));
      const answer = await api.call<{ data: UploadSession }>('PUT', `${sessionRoute}/chunks?offset=${from}`, {
        body,
        length: end - from,
      });
      received = answer.data.receivedBytes;
      status = answer.data.status;
      failures = 0;
    } catch (error) {
      const api409 = apiError(error);
      const details = api409?.details as { expectedOffset?: number } | undefined;
      const reason = reasonOf(error);
      if (reason === 'UPLOAD_OFFSET_MISMATCH' && typeof details?.expectedOffset === 'number') {
        received = details.expectedOffset;
        continue;
      }
      const retryable = !api409 || api409.status >= 500 || reason === 'UPLOAD_IN_PROGRESS';
      failures += 1;
      if (!retryable || failures > MAX_ATTEMPTS) {
        progress.finish();
        throw new CliError(
          `${describeApiError(error)} (rerun the same command to resume from byte ${received})`,
        );
      }
      await sleep(Math.min(500 * 2 ** failures, 10_000));
      // Ask the server where it stands: what it durably has is where the next chunk starts.
      try {
        const current = (await api.call<{ data: UploadSession }>('GET', sessionRoute)).data;
        received = current.receivedBytes;
        status = current.status;
        if (status !== 'open') break;
      } catch {
        // still unreachable: the next attempt retries
      }
    }
  }
  progress.set(received);
  progress.finish();
  if (status === 'open') {
    try {
      status = (await api.call<{ data: UploadSession }>('POST', `${sessionRoute}/complete`)).data.status;
    } catch (error) {
      throw new CliError(describeApiError(error));
    }
  }
  if (status !== 'complete') throw new CliError(`the upload ended as ${status}`);
  await forget();
  const seconds = (Date.now() - started) / 1000;
  const sent = session.totalBytes - startBytes;
  return (
    `uploaded ${localArg} → ${node.name}:${session.path} (${session.totalBytes} bytes` +
    `${startBytes > 0 ? `, resumed at byte ${startBytes}` : ''}) in ${seconds.toFixed(1)} s, ` +
    `${formatBytes(sent / Math.max(seconds, 0.001))}/s`
  );
}

async function findNode(api: Api, ref: string): Promise<{ id: string; name: string }> {
  try {
    if (isUuid(ref))
      return (await api.call<{ data: { id: string; name: string } }>('GET', `/api/nodes/${ref}`)).data;
    const page = await api.call<{ data: { id: string; name: string }[] }>(
      'GET',
      `/api/nodes?name=${encodeURIComponent(ref)}`,
    );
    if (page.data[0]) return page.data[0];
  } catch (error) {
    if (apiError(error)?.status !== 404) throw new CliError(describeApiError(error));
  }
  throw new CliError(`no node named ${ref}`);
}
