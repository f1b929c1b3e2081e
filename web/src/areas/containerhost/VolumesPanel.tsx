import { Button, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { RelativeTime } from '../../components/RelativeTime';
import { nodeKey } from './queries';
import { CreateDialog, deleteColumn, ResourcePanel } from './ResourcePanel';
import { VolumeFilesDialog } from './VolumeFilesDialog';

type Volume = Answer<'/api/containerhost/nodes/{nodeId}/volumes', 'get'>['data'][number];

function CreateVolumeDialog({
  nodeId,
  opened,
  onClose,
}: {
  nodeId: string;
  opened: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const { form, ...state } = useApiForm({
    initialValues: { name: '', driver: '' },
    reasonFields: { VOLUME_NAME_TAKEN: 'name' },
    submit: ({ name, driver }) =>
      call(
        api.POST('/api/containerhost/nodes/{nodeId}/volumes', {
          params: { path: { nodeId } },
          body: { name, ...(driver ? { driver } : {}) },
        }),
      ),
    onDone: async ({ data }) => {
      notifySuccess(`Created volume ${data.name}.`);
      form.reset();
      onClose();
      await queryClient.invalidateQueries({ queryKey: nodeKey(nodeId) });
    },
  });
  return (
    <CreateDialog
      title="Create a volume"
      submitLabel="Create volume"
      opened={opened}
      onClose={onClose}
      {...state}
    >
      <TextInput label="Name" data-autofocus {...form.getInputProps('name')} />
      <TextInput label="Driver" description="Empty for local" {...form.getInputProps('driver')} />
    </CreateDialog>
  );
}

/** A node's volumes, with create and delete, and a browser of each one's files. */
export function VolumesPanel({ nodeId }: { nodeId: string }) {
  const queryClient = useQueryClient();
  const [browsing, setBrowsing] = useState<string | undefined>();
  return (
    <>
      {browsing && (
        <VolumeFilesDialog nodeId={nodeId} name={browsing} onClose={() => setBrowsing(undefined)} />
      )}
      <ResourcePanel<Volume>
        nodeId={nodeId}
        label="Volumes"
        createLabel="Create volume"
        createDialog={(props) => <CreateVolumeDialog nodeId={nodeId} {...props} />}
        fetchPage={(query) =>
          call(api.GET('/api/containerhost/nodes/{nodeId}/volumes', { params: { path: { nodeId }, query } }))
        }
        columns={{
          read: [
            {
              header: 'Volume',
              cell: (volume) => (
                <Text size="sm" style={{ wordBreak: 'break-all' }}>
                  {volume.name}
                </Text>
              ),
            },
            { header: 'Driver', cell: (volume) => volume.driver },
            { header: 'Created', cell: (volume) => <RelativeTime value={volume.createdAt} /> },
            {
              header: 'Files',
              cell: (volume) => (
                <Button
                  size="xs"
                  variant="default"
                  aria-label={`Browse files of volume ${volume.name}`}
                  onClick={() => setBrowsing(volume.name)}
                >
                  Browse
                </Button>
              ),
            },
          ],
          manage: deleteColumn<Volume>({
            what: 'volume',
            nameOf: (volume) => volume.name,
            message: 'Its data is gone for good. The engine refuses while a container uses it.',
            remove: async (volume) => {
              await call(
                api.DELETE('/api/containerhost/nodes/{nodeId}/volumes/{name}', {
                  params: { path: { nodeId, name: volume.name } },
                }),
              );
              notifySuccess(`Deleted volume ${volume.name}.`);
              await queryClient.invalidateQueries({ queryKey: nodeKey(nodeId) });
            },
          }),
        }}
        rowKey={(volume) => volume.name}
        empty={{
          title: 'No volumes',
          description: 'Create a volume to keep data beyond a container’s life.',
        }}
      />
    </>
  );
}
