import { Button, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { ConfirmButton } from '../../components/ConfirmButton';
import type { Column } from '../../components/DataTable';
import { formatBytes, formatDateTime } from '../../components/format';
import { notifySuccess } from '../../components/notify';
import { ServerList } from '../../components/ServerList';
import { PullImageDialog } from './PullImageDialog';
import { nodeKey, useMayManageContainers } from './queries';

type Image = Answer<'/api/containerhost/nodes/{nodeId}/images', 'get'>['data'][number];

/** `sha256:1e13b2b7ca42…` → `1e13b2b7ca42`, the short id the engines print. */
const shortImageId = (id: string) => id.replace(/^sha256:/, '').slice(0, 12);

/** A node's images, with pull (progress per layer), delete and prune of dangling ones. */
export function ImagesPanel({ nodeId }: { nodeId: string }) {
  const mayManage = useMayManageContainers();
  const queryClient = useQueryClient();
  const [pulling, pull] = useDisclosure(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: nodeKey(nodeId) });
  const remove = async (image: Image) => {
    await call(
      api.DELETE('/api/containerhost/nodes/{nodeId}/images/{imageId}', {
        params: { path: { nodeId, imageId: image.id } },
      }),
    );
    notifySuccess(`Deleted image ${shortImageId(image.id)}.`);
    await refresh();
  };
  const prune = async () => {
    const { data } = await call(
      api.POST('/api/containerhost/nodes/{nodeId}/images/prune', { params: { path: { nodeId } } }),
    );
    notifySuccess(
      `Removed ${data.deleted.length} dangling images, ${formatBytes(data.spaceReclaimed)} reclaimed.`,
    );
    await refresh();
  };
  const columns: Column<Image>[] = [
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
    { header: 'Created', cell: (image) => formatDateTime(image.createdAt) },
    ...(mayManage
      ? [
          {
            header: 'Actions',
            cell: (image: Image) => (
              <ConfirmButton
                size="xs"
                label="Delete"
                aria-label={`Delete image ${image.repoTags[0] ?? shortImageId(image.id)}`}
                title={`Delete image ${image.repoTags[0] ?? shortImageId(image.id)}?`}
                message="The engine refuses while a container uses it."
                confirmLabel="Delete image"
                onConfirm={() => remove(image)}
              />
            ),
          },
        ]
      : []),
  ];
  const pullButton = mayManage ? <Button onClick={pull.open}>Pull image</Button> : undefined;
  return (
    <Stack>
      {mayManage && (
        <Group gap="xs">
          {pullButton}
          <ConfirmButton
            label="Prune dangling images"
            title="Prune dangling images?"
            message="Images without a tag that no container uses are deleted."
            confirmLabel="Prune"
            onConfirm={prune}
          />
        </Group>
      )}
      <ServerList
        label="Images"
        queryKey={[...nodeKey(nodeId), 'images']}
        fetchPage={(query) =>
          call(api.GET('/api/containerhost/nodes/{nodeId}/images', { params: { path: { nodeId }, query } }))
        }
        columns={columns}
        rowKey={(image) => image.id}
        search="Search images"
        empty={{
          title: 'No images on this node',
          description: mayManage
            ? 'Pull an image to run containers from it.'
            : 'Images pulled onto this engine show here.',
          action: pullButton,
        }}
      />
      {mayManage && <PullImageDialog nodeId={nodeId} opened={pulling} onClose={pull.close} />}
    </Stack>
  );
}
