import { api, call } from '../../api/client';
import { uploadUrl, uploadWithProgress } from '../../api/upload';
import { FileBrowser, type FileSource } from './FileBrowser';
import { containerKey, useMayManageContainers } from './queries';

const FILES_PATH = '/api/containerhost/nodes/{nodeId}/containers/{containerId}/files';

/** A container's files through the engine's archive API; managers upload, move and delete them and create directories. */
export function FilesPanel({ nodeId, containerId }: { nodeId: string; containerId: string }) {
  const mayManage = useMayManageContainers(nodeId);
  const path = { nodeId, containerId };
  const source: FileSource = {
    key: [...containerKey(nodeId, containerId), 'files'],
    list: (dir) => call(api.GET(FILES_PATH, { params: { path, query: { path: dir } } })),
    downloadUrl: (file) => uploadUrl(`${FILES_PATH}/content`, path, { path: file }),
    ...(mayManage
      ? {
          upload: (file, body, onProgress) =>
            uploadWithProgress('put', `${FILES_PATH}/content`, {
              path,
              query: { path: file },
              body,
              onProgress,
            }),
          move: (fromPath, toPath) =>
            call(api.POST(`${FILES_PATH}/move`, { params: { path }, body: { fromPath, toPath } })),
          remove: (file, directory) =>
            call(
              api.DELETE(FILES_PATH, {
                params: { path, query: { path: file, ...(directory ? { recursive: true } : {}) } },
              }),
            ),
          mkdir: (dir) => call(api.POST(`${FILES_PATH}/mkdir`, { params: { path }, body: { path: dir } })),
        }
      : {}),
  };
  return <FileBrowser source={source} />;
}
