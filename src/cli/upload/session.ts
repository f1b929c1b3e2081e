import crypto from 'node:crypto';
import fs from 'node:fs';
import { type ApiClient, apiError, type CallAnswer, describeApiError, reasonOf } from '../api-client.js';
import { CliError } from '../cli-error.js';
import { Progress } from '../progress.js';
import type { LocalFileStamp, ResumeState } from './resume-state.js';

const SESSION = '/api/nodes/{id}/files/uploads/{uploadId}';

/** The upload session as the API answers it. */
export type UploadSession = CallAnswer<typeof SESSION, 'GET'>['data'];

/** The placeholders of a session's routes: its node's id and its own. */
export interface SessionParams {
  id: string;
  uploadId: string;
}

export interface SessionRequest {
  api: ApiClient;
  nodeId: string;
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
  const { api, nodeId, state } = request;
  const saved = await state.read(request.stamp);
  if (!saved) return createSession(request);
  const path = { id: nodeId, uploadId: saved.uploadId };
  if (saved.current) {
    try {
      const { data: found } = await api.call('GET', SESSION, { path });
      if (found.status === 'complete' || found.status === 'open') {
        if (found.status === 'open')
          process.stderr.write(`resuming upload ${found.uploadId} at byte ${found.receivedBytes}\n`);
        return found;
      }
    } catch (error) {
      if (apiError(error)?.status !== 404) throw new CliError(describeApiError(error));
    }
  } else {
    // The local file changed since: its old session cannot be continued.
    await api.call('DELETE', SESSION, { path }).catch(() => undefined);
    await state.forget();
  }
  return createSession(request);
}

async function createSession(request: SessionRequest): Promise<UploadSession> {
  const { api, nodeId, stamp } = request;
  const sha256 = request.checksum ? await sha256Of(request.localFile, stamp.size) : undefined;
  let session: UploadSession;
  try {
    ({ data: session } = await api.call('POST', '/api/nodes/{id}/files/uploads', {
      path: { id: nodeId },
      json: { path: request.remotePath, totalBytes: stamp.size, sha256, overwrite: request.overwrite },
    }));
  } catch (error) {
    if (reasonOf(error) === 'UPLOAD_EXISTS') {
      const details = apiError(error)?.details;
      const other = details && !Array.isArray(details) ? details.uploadId : undefined;
      throw new CliError(
        `another upload session (${other}) is open for this path; abort it with DELETE /api/nodes/${nodeId}/files/uploads/${other} or wait for it`,
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
