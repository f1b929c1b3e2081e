import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Upload } from '../../modules/nodes/schemas.js';
import { type ApiClient, apiError, describeApiError, reasonOf } from '../api-client.js';
import { CliError } from '../cli-error.js';
import { Progress } from '../progress.js';
import type { LocalFileStamp, ResumeState } from './resume-state.js';

/** The upload session as the API answers it (the CLI reads only these fields). */
export type UploadSession = Pick<
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

export interface SessionRequest {
  api: ApiClient;
  /** `/api/nodes/<id>/files/uploads` */
  uploadsRoute: string;
  state: ResumeState;
  localFile: string;
  stamp: LocalFileStamp;
  remotePath: string;
  overwrite: boolean;
  checksum: boolean;
}

/**
 * The remembered session when the local file is unchanged and the session still open (or already
 * complete); otherwise a new session, remembered at once. A stale remembered session is aborted.
 */
export async function openSession(request: SessionRequest): Promise<UploadSession> {
  const { api, uploadsRoute, state } = request;
  const saved = await state.read(request.stamp);
  if (saved?.current) {
    try {
      const found = (await api.call<{ data: UploadSession }>('GET', `${uploadsRoute}/${saved.uploadId}`))
        .data;
      if (found.status === 'complete' || found.status === 'open') {
        if (found.status === 'open')
          process.stderr.write(`resuming upload ${found.uploadId} at byte ${found.receivedBytes}\n`);
        return found;
      }
    } catch (error) {
      if (apiError(error)?.status !== 404) throw new CliError(describeApiError(error));
    }
  } else if (saved) {
    // The local file changed since: its old session cannot be continued.
    await api.call('DELETE', `${uploadsRoute}/${saved.uploadId}`).catch(() => undefined);
    await state.forget();
  }
  return createSession(request);
}

async function createSession(request: SessionRequest): Promise<UploadSession> {
  const { api, uploadsRoute, stamp } = request;
  const sha256 = request.checksum ? await sha256Of(request.localFile, stamp.size) : undefined;
  let session: UploadSession;
  try {
    session = (
      await api.call<{ data: UploadSession }>('POST', uploadsRoute, {
        json: { path: request.remotePath, totalBytes: stamp.size, sha256, overwrite: request.overwrite },
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
  await request.state.save(session.uploadId, stamp);
  return session;
}

/** SHA-256 of the local file, with a progress bar (the server verifies it at completion). */
async function sha256Of(file: string, size: number): Promise<string> {
  const hash = crypto.createHash('sha256');
  process.stderr.write('computing SHA-256…\n');
  const progress = new Progress(size, 0);
  let done = 0;
  for await (const data of fs.createReadStream(file, { highWaterMark: 1024 * 1024 })) {
    hash.update(data as Buffer);
    done += (data as Buffer).length;
    progress.set(done);
  }
  progress.finish();
  return hash.digest('hex');
}
