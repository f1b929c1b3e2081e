import { ApiError } from '../../api/errors';

/** The part of an upload session this loop reads. */
export interface UploadState {
  totalBytes: number;
  receivedBytes: number;
  chunkSize: number;
  maxChunkBytes: number;
  status: 'open' | 'complete' | 'failed' | 'aborted' | 'expired';
}

/** How the loop talks to the gateway (the API in the console, a fake in tests). */
export interface UploadTransport<Session extends UploadState> {
  /** Writes `bytes` at `offset`; answers the session after the chunk was made durable. */
  sendChunk(offset: number, bytes: Blob): Promise<Session>;
  /** Where the gateway stands now. */
  status(): Promise<Session>;
  /** Finishes an upload whose bytes all arrived (a zero-byte file has no chunk to finish it). */
  complete(): Promise<Session>;
}

// Chunks of at most this size keep the progress bar moving; the gateway may suggest smaller ones.
export const BROWSER_CHUNK_BYTES = 4 * 1024 * 1024;

export function chunkBytes(session: UploadState): number {
  return Math.max(1, Math.min(session.chunkSize, session.maxChunkBytes, BROWSER_CHUNK_BYTES));
}

const offsetMoved = (error: unknown) =>
  error instanceof ApiError && error.status === 409 && error.reason === 'UPLOAD_OFFSET_MISMATCH';

/**
 * Sends `file` from where the gateway stands (`session.receivedBytes`) to its end, chunk by chunk,
 * reporting the durable byte count after each. When the gateway's offset differs from the one sent
 * (another tab, a chunk whose answer was lost), it asks where it stands and continues from there.
 * Stops with the signal's reason when aborted.
 */
export async function runUpload<Session extends UploadState>(options: {
  file: Blob;
  session: Session;
  transport: UploadTransport<Session>;
  onProgress: (session: Session) => void;
  signal?: AbortSignal;
}): Promise<Session> {
  const { file, transport, onProgress, signal } = options;
  let session = options.session;
  const size = chunkBytes(session);
  while (session.status === 'open' && session.receivedBytes < session.totalBytes) {
    signal?.throwIfAborted();
    const offset = session.receivedBytes;
    try {
      session = await transport.sendChunk(
        offset,
        file.slice(offset, Math.min(offset + size, session.totalBytes)),
      );
    } catch (error) {
      if (!offsetMoved(error)) throw error;
      session = await transport.status();
    }
    onProgress(session);
  }
  if (session.status === 'open') {
    signal?.throwIfAborted();
    session = await transport.complete();
    onProgress(session);
  }
  return session;
}
