import { Badge, Button, Checkbox, Modal, Stack, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { ConfirmButton } from '../../components/ConfirmButton';
import type { Column } from '../../components/DataTable';
import { notifySuccess } from '../../components/notify';
import { ServerList } from '../../components/ServerList';
import { nodeKey, useMayManageContainers } from './queries';

type Network = Answer<'/api/containerhost/nodes/{nodeId}/networks', 'get'>['data'][number];

function CreateNetworkDialog({
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
    initialValues: { name: '', driver: '', subnet: '', internal: false },
    reasonFields: { NETWORK_NAME_TAKEN: 'name' },
    submit: ({ name, driver, subnet, internal }) =>
      call(
        api.POST('/api/containerhost/nodes/{nodeId}/networks', {
          params: { path: { nodeId } },
          body: { name, internal, ...(driver ? { driver } : {}), ...(subnet ? { subnet } : {}) },
        }),
      ),
    onDone: async ({ data }) => {
      notifySuccess(`Created network ${data.name}.`);
      form.reset();
      onClose();
      await queryClient.invalidateQueries({ queryKey: nodeKey(nodeId) });
    },
  });
  return (
    <Modal opened={opened} onClose={onClose} title="Create a network">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} />
          <TextInput label="Name" data-autofocus {...form.getInputProps('name')} />
          <TextInput label="Driver" description="Empty for bridge" {...form.getInputProps('driver')} />
          <TextInput
            label="Subnet"
            description="A CIDR, e.g. 10.42.0.0/24; empty to let the engine choose"
            {...form.getInputProps('subnet')}
          />
          <Checkbox
            label="Internal (no route outside)"
            {...form.getInputProps('internal', { type: 'checkbox' })}
          />
          <FormActions submitLabel="Create network" submitting={submitting} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}

/** A node's networks, with create and delete (built-in ones cannot be deleted). */
export function NetworksPanel({ nodeId }: { nodeId: string }) {
  const mayManage = useMayManageContainers();
  const queryClient = useQueryClient();
  const [creating, create] = useDisclosure(false);
  const remove = async (network: Network) => {
    await call(
      api.DELETE('/api/containerhost/nodes/{nodeId}/networks/{networkId}', {
        params: { path: { nodeId, networkId: network.id } },
      }),
    );
    notifySuccess(`Deleted network ${network.name}.`);
    await queryClient.invalidateQueries({ queryKey: nodeKey(nodeId) });
  };
  const columns: Column<Network>[] = [
    {
      header: 'Network',
      cell: (network) => (
        <>
          {network.name}{' '}
          {network.builtIn && (
            <Badge variant="light" color="gray">
              built-in
            </Badge>
          )}
        </>
      ),
    },
    { header: 'Driver', cell: (network) => network.driver },
    { header: 'Subnets', cell: (network) => network.subnets.join(', ') || '—' },
    { header: 'Internal', cell: (network) => (network.internal ? 'yes' : 'no') },
    ...(mayManage
      ? [
          {
            header: 'Actions',
            cell: (network: Network) =>
              network.builtIn ? null : (
                <ConfirmButton
                  size="xs"
                  label="Delete"
                  aria-label={`Delete network ${network.name}`}
                  title={`Delete network ${network.name}?`}
                  message="The engine refuses while containers are attached to it."
                  confirmLabel="Delete network"
                  onConfirm={() => remove(network)}
                />
              ),
          },
        ]
      : []),
  ];
  const createButton = mayManage ? <Button onClick={create.open}>Create network</Button> : undefined;
  return (
    <Stack>
      {createButton && <div>{createButton}</div>}
      <ServerList
        label="Networks"
        queryKey={[...nodeKey(nodeId), 'networks']}
        fetchPage={(query) =>
          call(api.GET('/api/containerhost/nodes/{nodeId}/networks', { params: { path: { nodeId }, query } }))
        }
        columns={columns}
        rowKey={(network) => network.id}
        search="Search networks"
        empty={{
          title: 'No networks',
          description: 'Create a network to connect containers to each other.',
          action: createButton,
        }}
      />
      {mayManage && <CreateNetworkDialog nodeId={nodeId} opened={creating} onClose={create.close} />}
    </Stack>
  );
}
