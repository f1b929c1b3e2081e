import { api, call } from '../../api/client';
import { uploadUrl, uploadWithProgress } from '../../api/upload';
import { FileBrowser, type FileSource } from './FileBrowser';
import { containerKey, useMayManageContainers } from './queries';

const FILES_PATH = '/api/containerhost/nodes/{nodeId}/containers/{containerId}/files';

/** A container's files through the engine's archive API; managers upload and move them. */
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
        }
      : {}),
  };
  return <FileBrowser source={source} />;
}
