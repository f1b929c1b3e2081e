import { Modal } from '@mantine/core';
import { api, call } from '../../api/client';
import { uploadUrl, uploadWithProgress } from '../../api/upload';
import { FileBrowser, type FileSource } from './FileBrowser';
import { nodeKey, useMayManageContainers } from './queries';

const FILES_PATH = '/api/containerhost/nodes/{nodeId}/volumes/{name}/files';

/** A volume's files (read and written through a helper container): browse, download, upload. */
export function VolumeFilesDialog({
  nodeId,
  name,
  onClose,
}: {
  nodeId: string;
  name: string;
  onClose: () => void;
}) {
  const mayManage = useMayManageContainers(nodeId);
  const path = { nodeId, name };
  const source: FileSource = {
    key: [...nodeKey(nodeId), 'volume', name, 'files'],
    list: (dir) => call(api.GET(FILES_PATH, { params: { path, query: { path: dir } } })),
    downloadUrl: (file) => uploadUrl(`${FILES_PATH}/content`, path, { path: file }),
    ...(mayManage
      ? {
          upload: (file, body, onProgress) =>
            uploadWithProgress('put', `${FILES_PATH}/write`, {
              path,
              query: { path: file },
              body,
              onProgress,
            }),
        }
      : {}),
  };
  return (
    <Modal opened onClose={onClose} title={`Files of volume ${name}`} size="xl">
      <FileBrowser source={source} />
    </Modal>
  );
}
