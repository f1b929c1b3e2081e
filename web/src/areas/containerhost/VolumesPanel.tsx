import { Button, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { ConfirmButton } from '../../components/ConfirmButton';
import type { Column } from '../../components/DataTable';
import { formatDateTime } from '../../components/format';
import { notifySuccess } from '../../components/notify';
import { ServerList } from '../../components/ServerList';
import { nodeKey, useMayManageContainers } from './queries';

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
  const { form, banner, submitting, onSubmit } = useApiForm({
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
    <Modal opened={opened} onClose={onClose} title="Create a volume">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} />
          <TextInput label="Name" data-autofocus {...form.getInputProps('name')} />
          <TextInput label="Driver" description="Empty for local" {...form.getInputProps('driver')} />
          <FormActions submitLabel="Create volume" submitting={submitting} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}

/** A node's volumes, with create and delete (by force: the containers using it go first). */
export function VolumesPanel({ nodeId }: { nodeId: string }) {
  const mayManage = useMayManageContainers();
  const queryClient = useQueryClient();
  const [creating, create] = useDisclosure(false);
  const remove = async (volume: Volume) => {
    await call(
      api.DELETE('/api/containerhost/nodes/{nodeId}/volumes/{name}', {
        params: { path: { nodeId, name: volume.name } },
      }),
    );
    notifySuccess(`Deleted volume ${volume.name}.`);
    await queryClient.invalidateQueries({ queryKey: nodeKey(nodeId) });
  };
  const columns: Column<Volume>[] = [
    {
      header: 'Volume',
      cell: (volume) => (
        <Text size="sm" style={{ wordBreak: 'break-all' }}>
          {volume.name}
        </Text>
      ),
    },
    { header: 'Driver', cell: (volume) => volume.driver },
    { header: 'Created', cell: (volume) => formatDateTime(volume.createdAt) },
    ...(mayManage
      ? [
          {
            header: 'Actions',
            cell: (volume: Volume) => (
              <ConfirmButton
                size="xs"
                label="Delete"
                aria-label={`Delete volume ${volume.name}`}
                title={`Delete volume ${volume.name}?`}
                message="Its data is gone for good. The engine refuses while a container uses it."
                confirmLabel="Delete volume"
                onConfirm={() => remove(volume)}
              />
            ),
          },
        ]
      : []),
  ];
  const createButton = mayManage ? <Button onClick={create.open}>Create volume</Button> : undefined;
  return (
    <Stack>
      {createButton && <div>{createButton}</div>}
      <ServerList
        label="Volumes"
        queryKey={[...nodeKey(nodeId), 'volumes']}
        fetchPage={(query) =>
          call(api.GET('/api/containerhost/nodes/{nodeId}/volumes', { params: { path: { nodeId }, query } }))
        }
        columns={columns}
        rowKey={(volume) => volume.name}
        search="Search volumes"
        empty={{
          title: 'No volumes',
          description: 'Create a volume to keep data beyond a container’s life.',
          action: createButton,
        }}
      />
      {mayManage && <CreateVolumeDialog nodeId={nodeId} opened={creating} onClose={create.close} />}
    </Stack>
  );
}
