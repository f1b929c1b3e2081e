import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import { runUpload, type UploadState, type UploadTransport } from './resumable-upload';

/** A gateway in memory: keeps the bytes it was sent, refuses a chunk at the wrong offset. */
function fakeGateway(totalBytes: number, receivedBytes = 0) {
  const session: UploadState = { totalBytes, receivedBytes, chunkSize: 4, maxChunkBytes: 8, status: 'open' };
  const offsets: number[] = [];
  let written = new Uint8Array(receivedBytes);
  const transport: UploadTransport<UploadState> = {
    async sendChunk(offset, bytes) {
      offsets.push(offset);
      if (offset !== session.receivedBytes)
        throw new ApiError(409, {
          code: 'CONFLICT',
          message: 'Conflict',
          details: { reason: 'UPLOAD_OFFSET_MISMATCH', expectedOffset: session.receivedBytes },
        });
      written = new Uint8Array([...written, ...new Uint8Array(await bytes.arrayBuffer())]);
      session.receivedBytes += bytes.size;
      if (session.receivedBytes === totalBytes) session.status = 'complete';
      return { ...session };
    },
    status: async () => ({ ...session }),
    async complete() {
      session.status = 'complete';
      return { ...session };
    },
  };
  return { session, transport, offsets, written: () => written };
}

const file = new Blob([new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])]);

describe('a resumable upload', () => {
  it('sends the file in chunks of the suggested size and ends complete', async () => {
    const gateway = fakeGateway(10);
    const progress: number[] = [];
    const done = await runUpload({
      file,
      session: { ...gateway.session },
      transport: gateway.transport,
      onProgress: (session) => progress.push(session.receivedBytes),
    });
    expect(done.status).toBe('complete');
    expect(gateway.offsets).toEqual([0, 4, 8]);
    expect(progress).toEqual([4, 8, 10]);
    expect([...gateway.written()]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('continues from where the gateway stands', async () => {
    const gateway = fakeGateway(10, 8);
    await runUpload({
      file,
      session: { ...gateway.session },
      transport: gateway.transport,
      onProgress: () => {},
    });
    expect(gateway.offsets).toEqual([8]);
  });

  it('asks the gateway where it stands when its offset moved, and goes on from there', async () => {
    const gateway = fakeGateway(10, 4);
    // The page believes nothing arrived yet (its answer to the first chunk was lost).
    const done = await runUpload({
      file,
      session: { ...gateway.session, receivedBytes: 0 },
      transport: gateway.transport,
      onProgress: () => {},
    });
    expect(gateway.offsets).toEqual([0, 4, 8]);
    expect(done.status).toBe('complete');
  });

  it('finishes an empty file with an explicit completion', async () => {
    const gateway = fakeGateway(0);
    const done = await runUpload({
      file: new Blob([]),
      session: { ...gateway.session },
      transport: gateway.transport,
      onProgress: () => {},
    });
    expect(gateway.offsets).toEqual([]);
    expect(done.status).toBe('complete');
  });

  it('stops when aborted', async () => {
    const gateway = fakeGateway(10);
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await expect(
      runUpload({
        file,
        session: { ...gateway.session },
        transport: gateway.transport,
        onProgress: () => {},
        signal: controller.signal,
      }),
    ).rejects.toThrow('cancelled');
    expect(gateway.offsets).toEqual([]);
  });

  it('passes on any other refusal', async () => {
    const gateway = fakeGateway(10);
    gateway.transport.sendChunk = async () => {
      throw new ApiError(422, {
        code: 'UNPROCESSABLE_ENTITY',
        message: 'no',
        details: { reason: 'TEMP_DATA_LOST' },
      });
    };
    await expect(
      runUpload({
        file,
        session: { ...gateway.session },
        transport: gateway.transport,
        onProgress: () => {},
      }),
    ).rejects.toMatchObject({ reason: 'TEMP_DATA_LOST' });
  });
});
