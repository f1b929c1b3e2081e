import fsp from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { isUuid } from '../core/ids.js';
import type { StorageNode } from '../modules/nodes/schemas.js';
import { CliError } from './admin-commands.js';
import { ApiClient, apiError, describeApiError } from './upload/api-client.js';
import { formatBytes, parseByteSize } from './upload/byte-sizes.js';
import { Progress } from './upload/progress.js';
import { ResumeState } from './upload/resume-state.js';
import { sendChunks } from './upload/send-chunks.js';
import { openSession, type UploadSession } from './upload/session.js';

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

  const api = new ApiClient(baseUrl, token);
  const node = await findNode(api, values.node);
  const uploadsRoute = `/api/nodes/${node.id}/files/uploads`;
  const state = new ResumeState({ baseUrl, nodeId: node.id, localFile, remotePath });
  if (values.restart) await state.forget();

  const session = await openSession({
    api,
    uploadsRoute,
    state,
    localFile,
    stamp: stat,
    remotePath,
    overwrite: Boolean(values.overwrite),
    checksum: !values['no-checksum'],
  });
  if (session.status === 'complete') {
    await state.forget();
    return `already uploaded: ${localArg} → ${node.name}:${session.path} (${session.totalBytes} bytes)`;
  }

  const sessionRoute = `${uploadsRoute}/${session.uploadId}`;
  const started = Date.now();
  const startBytes = session.receivedBytes;
  let { status } = await sendChunks({
    api,
    sessionRoute,
    localFile,
    session,
    chunkSize: Math.min(chunkOverride ?? session.chunkSize, session.maxChunkBytes),
    rate,
    progress: new Progress(session.totalBytes, session.receivedBytes),
  });
  if (status === 'open') status = await complete(api, sessionRoute);
  if (status !== 'complete') throw new CliError(`the upload ended as ${status}`);
  await state.forget();
  const seconds = (Date.now() - started) / 1000;
  const sent = session.totalBytes - startBytes;
  return (
    `uploaded ${localArg} → ${node.name}:${session.path} (${session.totalBytes} bytes` +
    `${startBytes > 0 ? `, resumed at byte ${startBytes}` : ''}) in ${seconds.toFixed(1)} s, ` +
    `${formatBytes(sent / Math.max(seconds, 0.001))}/s`
  );
}

async function complete(api: ApiClient, sessionRoute: string): Promise<UploadSession['status']> {
  try {
    return (await api.call<{ data: UploadSession }>('POST', `${sessionRoute}/complete`)).data.status;
  } catch (error) {
    throw new CliError(describeApiError(error));
  }
}

/** The node as the command reads it. */
type NodeRef = Pick<StorageNode, 'id' | 'name'>;

async function findNode(api: ApiClient, ref: string): Promise<NodeRef> {
  try {
    if (isUuid(ref)) return (await api.call<{ data: NodeRef }>('GET', `/api/nodes/${ref}`)).data;
    const page = await api.call<{ data: NodeRef[] }>('GET', `/api/nodes?name=${encodeURIComponent(ref)}`);
    if (page.data[0]) return page.data[0];
  } catch (error) {
    if (apiError(error)?.status !== 404) throw new CliError(describeApiError(error));
  }
  throw new CliError(`no node named ${ref}`);
}
