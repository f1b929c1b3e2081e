import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, call } from '../../api/client';
import { notifyError, notifySuccess } from '../../components/notify';
import { type Upload, uploadsKey } from './queries';
import { runUpload, type UploadTransport } from './resumable-upload';
import { forgetUpload, identify, mismatch, rememberedUpload, rememberUpload } from './upload-memory';

/** The upload this page is sending, or the last one it sent. */
export interface ActiveUpload {
  session: Upload;
  state: 'sending' | 'done' | 'failed';
  error?: unknown;
}

function transport(nodeId: string, uploadId: string, signal: AbortSignal): UploadTransport<Upload> {
  const path = { id: nodeId, uploadId };
  return {
    sendChunk: async (offset, bytes) =>
      (
        await call(
          api.PUT('/api/nodes/{id}/files/uploads/{uploadId}/chunks', {
            params: { path, query: { offset } },
            // The OpenAPI document has no body for raw bytes: the chunk is sent as it is.
            body: bytes as never,
            bodySerializer: (body: unknown) => body as Blob,
            headers: { 'content-type': 'application/octet-stream' },
            signal,
          }),
        )
      ).data,
    status: async () =>
      (await call(api.GET('/api/nodes/{id}/files/uploads/{uploadId}', { params: { path }, signal }))).data,
    complete: async () =>
      (
        await call(
          api.POST('/api/nodes/{id}/files/uploads/{uploadId}/complete', { params: { path }, signal }),
        )
      ).data,
  };
}

/**
 * Uploads into one node: start a new upload, resume one the gateway keeps open (after a reload, or
 * from another browser) once the user picked the same file again, cancel one. The browser remembers
 * which file fed which session; leaving the page pauses the upload, it does not cancel it.
 */
export function useNodeUpload(nodeId: string) {
  const queryClient = useQueryClient();
  const [active, setActive] = useState<ActiveUpload | undefined>();
  const running = useRef<AbortController | undefined>(undefined);
  useEffect(() => () => running.current?.abort(new Error('left the page')), []);
  const refresh = useCallback(
    () => queryClient.invalidateQueries({ queryKey: uploadsKey(nodeId) }),
    [queryClient, nodeId],
  );

  const send = async (file: File, session: Upload) => {
    running.current?.abort(new Error('another upload started'));
    const controller = new AbortController();
    running.current = controller;
    setActive({ session, state: 'sending' });
    try {
      const done = await runUpload({
        file,
        session,
        transport: transport(nodeId, session.id, controller.signal),
        onProgress: (next) => setActive({ session: next, state: 'sending' }),
        signal: controller.signal,
      });
      forgetUpload(localStorage, session.id);
      setActive({ session: done, state: 'done' });
      notifySuccess(`Uploaded ${done.path}.`);
    } catch (error) {
      if (controller.signal.aborted) return;
      setActive((current) => ({ session: current?.session ?? session, state: 'failed', error }));
    } finally {
      if (running.current === controller) running.current = undefined;
      await refresh();
    }
  };

  /** Opens a session for `file` at `path` and sends it; a refusal to open it is thrown to the form. */
  const start = async (file: File, target: { path: string; overwrite: boolean }) => {
    const { data } = await call(
      api.POST('/api/nodes/{id}/files/uploads', {
        params: { path: { id: nodeId } },
        body: { path: target.path, totalBytes: file.size, overwrite: target.overwrite },
      }),
    );
    rememberUpload(localStorage, { uploadId: data.id, nodeId, path: data.path, file: identify(file) });
    void send(file, data);
  };

  /** Continues `upload` from where the gateway stands, if `file` is the file it started with. */
  const resume = async (upload: Upload, file: File) => {
    const refused = mismatch(identify(file), upload, rememberedUpload(localStorage, upload.id));
    if (refused) return notifyError(new Error(refused));
    try {
      const { data } = await call(
        api.GET('/api/nodes/{id}/files/uploads/{uploadId}', {
          params: { path: { id: nodeId, uploadId: upload.id } },
        }),
      );
      rememberUpload(localStorage, { uploadId: data.id, nodeId, path: data.path, file: identify(file) });
      await send(file, data);
    } catch (error) {
      notifyError(error);
    }
  };

  /** Stops sending (if this page is) and aborts the session: its data on the node is removed. */
  const cancel = async (upload: Upload) => {
    if (active?.session.id === upload.id) running.current?.abort(new Error('cancelled'));
    const { data } = await call(
      api.DELETE('/api/nodes/{id}/files/uploads/{uploadId}', {
        params: { path: { id: nodeId, uploadId: upload.id } },
      }),
    );
    forgetUpload(localStorage, upload.id);
    setActive((current) => (current?.session.id === upload.id ? undefined : current));
    notifySuccess(`Cancelled the upload of ${data.path}.`);
    await refresh();
  };

  return { active, start, resume, cancel };
}
