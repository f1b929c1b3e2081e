import fsp from 'node:fs/promises';
import { isUuid } from '../core/ids.js';
import { type ApiClient, apiError, type CallAnswer, describeApiError } from './api-client.js';
import { CliError } from './cli-error.js';
import { Progress } from './progress.js';
import { formatBytes, parseByteSize } from './upload/byte-sizes.js';
import { ResumeState } from './upload/resume-state.js';
import { sendChunks } from './upload/send-chunks.js';
import { openSession, type SessionParams, type UploadSession } from './upload/session.js';

/**
 * `infragate upload --node <name|id> <local-file> <remote-path>`: a client of the HTTP API (it does not
 * open the database). It creates an upload session, sends the file in chunks with a progress bar on
 * stderr, and remembers the session in ~/.infragate/uploads/ so an interrupted run resumes where
 * the server's durable `receivedBytes` says.
 */

export interface UploadOptions {
  node: string;
  overwrite?: boolean;
  chunkSize?: string;
  limitRate?: string;
  /** false with `--no-checksum` */
  checksum: boolean;
  restart?: boolean;
}

export async function runUpload(
  api: ApiClient,
  options: UploadOptions,
  localArg: string,
  remotePath: string,
): Promise<string> {
  const baseUrl = api.baseUrl;
  const localFile = await fsp.realpath(localArg).catch(() => {
    throw new CliError(`${localArg} does not exist`);
  });
  const stat = await fsp.stat(localFile);
  if (!stat.isFile()) throw new CliError(`${localArg} is not a regular file`);
  const chunkOverride = options.chunkSize ? parseByteSize(options.chunkSize, '--chunk-size') : undefined;
  const rate = options.limitRate ? parseByteSize(options.limitRate, '--limit-rate') : undefined;

  const node = await findNode(api, options.node);
  const state = new ResumeState({ baseUrl, nodeId: node.id, localFile, remotePath });
  if (options.restart) await state.forget();

  const session = await openSession({
    api,
    nodeId: node.id,
    state,
    localFile,
    stamp: stat,
    remotePath,
    overwrite: Boolean(options.overwrite),
    checksum: options.checksum,
  });
  if (session.status === 'complete') {
    await state.forget();
    return `already uploaded: ${localArg} → ${node.name}:${session.path} (${session.totalBytes} bytes)`;
  }

  const path = { id: node.id, uploadId: session.uploadId };
  const started = Date.now();
  const startBytes = session.receivedBytes;
  let { status } = await sendChunks({
    api,
    path,
    localFile,
    session,
    chunkSize: Math.min(chunkOverride ?? session.chunkSize, session.maxChunkBytes),
    rate,
    progress: new Progress(session.totalBytes, session.receivedBytes),
  });
  if (status === 'open') status = await complete(api, path);
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

async function complete(api: ApiClient, path: SessionParams): Promise<UploadSession['status']> {
  try {
    const { data } = await api.call('POST', '/api/nodes/{id}/files/uploads/{uploadId}/complete', { path });
    return data.status;
  } catch (error) {
    throw new CliError(describeApiError(error));
  }
}

async function findNode(api: ApiClient, ref: string): Promise<CallAnswer<'/api/nodes/{id}', 'GET'>['data']> {
  try {
    if (isUuid(ref)) return (await api.call('GET', '/api/nodes/{id}', { path: { id: ref } })).data;
    const page = await api.call('GET', '/api/nodes', { query: { name: ref } });
    if (page.data[0]) return page.data[0];
  } catch (error) {
    if (apiError(error)?.status !== 404) throw new CliError(describeApiError(error));
  }
  throw new CliError(`no node named ${ref}`);
}
