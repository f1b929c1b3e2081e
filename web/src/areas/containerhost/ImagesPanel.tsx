import { Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { ConfirmButton } from '../../components/ConfirmButton';
import { formatBytes } from '../../components/format';
import { notifySuccess } from '../../components/notify';
import { RelativeTime } from '../../components/RelativeTime';
import { PullImageDialog } from './PullImageDialog';
import { nodeKey } from './queries';
import { deleteColumn, ResourcePanel } from './ResourcePanel';

type Image = Answer<'/api/containerhost/nodes/{nodeId}/images', 'get'>['data'][number];

/** `sha256:1e13b2b7ca42…` → `1e13b2b7ca42`, the short id the engines print. */
const shortImageId = (id: string) => id.replace(/^sha256:/, '').slice(0, 12);

/** A node's images, with pull (progress per layer), delete and prune of dangling ones. */
export function ImagesPanel({ nodeId }: { nodeId: string }) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: nodeKey(nodeId) });
  const prune = async () => {
    const { data } = await call(
      api.POST('/api/containerhost/nodes/{nodeId}/images/prune', { params: { path: { nodeId } } }),
    );
    notifySuccess(
      `Removed ${data.deleted.length} dangling images, ${formatBytes(data.spaceReclaimed)} reclaimed.`,
    );
    await refresh();
  };
  const nameOf = (image: Image) => image.repoTags[0] ?? shortImageId(image.id);
  return (
    <ResourcePanel<Image>
      nodeId={nodeId}
      label="Images"
      createLabel="Pull image"
      createDialog={(props) => <PullImageDialog nodeId={nodeId} {...props} />}
      actions={
        <ConfirmButton
          label="Prune dangling images"
          title="Prune dangling images?"
          message="Images without a tag that no container uses are deleted."
          confirmLabel="Prune"
          onConfirm={prune}
        />
      }
      fetchPage={(query) =>
        call(api.GET('/api/containerhost/nodes/{nodeId}/images', { params: { path: { nodeId }, query } }))
      }
      columns={{
        read: [
          {
            header: 'Tags',
            cell: (image) => (
              <Text size="sm" style={{ wordBreak: 'break-all' }}>
                {image.repoTags.join(', ') || '<none>'}
              </Text>
            ),
          },
          {
            header: 'Id',
            cell: (image) => (
              <Text ff="monospace" size="sm">
                {shortImageId(image.id)}
              </Text>
            ),
          },
          { header: 'Size', cell: (image) => formatBytes(image.size) },
          { header: 'Created', cell: (image) => <RelativeTime value={image.createdAt} /> },
        ],
        manage: deleteColumn<Image>({
          what: 'image',
          nameOf,
          message: 'The engine refuses while a container uses it.',
          remove: async (image) => {
            await call(
              api.DELETE('/api/containerhost/nodes/{nodeId}/images/{imageId}', {
                params: { path: { nodeId, imageId: image.id } },
              }),
            );
            notifySuccess(`Deleted image ${nameOf(image)}.`);
            await refresh();
          },
        }),
      }}
      rowKey={(image) => image.id}
      empty={{ title: 'No images on this node', description: 'Pull an image to run containers from it.' }}
    />
  );
}
