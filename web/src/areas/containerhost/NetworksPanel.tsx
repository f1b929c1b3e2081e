import { Badge, Checkbox, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { nodeKey } from './queries';
import { CreateDialog, deleteColumn, ResourcePanel } from './ResourcePanel';

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
  const { form, ...state } = useApiForm({
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
    <CreateDialog
      title="Create a network"
      submitLabel="Create network"
      opened={opened}
      onClose={onClose}
      {...state}
    >
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
    </CreateDialog>
  );
}

/** A node's networks, with create and delete (built-in ones cannot be deleted). */
export function NetworksPanel({ nodeId }: { nodeId: string }) {
  const queryClient = useQueryClient();
  return (
    <ResourcePanel<Network>
      nodeId={nodeId}
      label="Networks"
      createLabel="Create network"
      createDialog={(props) => <CreateNetworkDialog nodeId={nodeId} {...props} />}
      fetchPage={(query) =>
        call(api.GET('/api/containerhost/nodes/{nodeId}/networks', { params: { path: { nodeId }, query } }))
      }
      columns={{
        read: [
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
        ],
        manage: deleteColumn<Network>({
          what: 'network',
          nameOf: (network) => network.name,
          message: 'The engine refuses while containers are attached to it.',
          deletable: (network) => !network.builtIn,
          remove: async (network) => {
            await call(
              api.DELETE('/api/containerhost/nodes/{nodeId}/networks/{networkId}', {
                params: { path: { nodeId, networkId: network.id } },
              }),
            );
            notifySuccess(`Deleted network ${network.name}.`);
            await queryClient.invalidateQueries({ queryKey: nodeKey(nodeId) });
          },
        }),
      }}
      rowKey={(network) => network.id}
      empty={{ title: 'No networks', description: 'Create a network to connect containers to each other.' }}
    />
  );
}
