import fs from 'node:fs';
import { type ApiClient, apiError, describeApiError, reasonOf } from '../api-client.js';
import { CliError } from '../cli-error.js';
import type { Progress } from '../progress.js';
import { meter } from './meter.js';
import type { SessionParams, UploadSession } from './session.js';

/** Failed attempts in a row before the command gives up (rerunning it resumes). */
const MAX_ATTEMPTS = 8;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ChunkSending {
  api: ApiClient;
  path: SessionParams;
  localFile: string;
  session: UploadSession;
  chunkSize: number;
  /** Bytes per second at most, when limited. */
  rate: number | undefined;
  progress: Progress;
}

/**
 * Sends the file from the session's `receivedBytes` on, a chunk per request. A failure that may pass
 * (network, 5xx, another writer busy) is retried with backoff from where the server says it stands;
 * an offset mismatch jumps to the server's offset. Answers where the server stands at the end.
 */
export async function sendChunks(sending: ChunkSending): Promise<{ status: UploadSession['status'] }> {
  const { api, path, localFile, session, chunkSize, rate, progress } = sending;
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
      const answer = await api.call('PUT', '/api/nodes/{id}/files/uploads/{uploadId}/chunks', {
        path,
        query: { offset: from },
        body,
        length: end - from,
      });
      received = answer.data.receivedBytes;
      status = answer.data.status;
      failures = 0;
    } catch (error) {
      const answer = apiError(error);
      const details = answer?.details;
      const expectedOffset = details && !Array.isArray(details) ? details.expectedOffset : undefined;
      const reason = reasonOf(error);
      if (reason === 'UPLOAD_OFFSET_MISMATCH' && typeof expectedOffset === 'number') {
        received = expectedOffset;
        continue;
      }
      const retryable = !answer || answer.status >= 500 || reason === 'UPLOAD_IN_PROGRESS';
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
        const { data: current } = await api.call('GET', '/api/nodes/{id}/files/uploads/{uploadId}', { path });
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
  return { status };
}
