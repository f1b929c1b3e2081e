import { Select, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { InlineForm, useApiForm } from '../../components/api-form';
import { ConfirmButton } from '../../components/ConfirmButton';
import { type Column, DataTable } from '../../components/DataTable';
import { notifySuccess } from '../../components/notify';
import { type Container, nodeKey, useMayManageContainers } from './queries';

type Attachment = Container['networks'][number];

/** Connect the container to one of the node's networks (the first 100 by name; type to narrow). */
function ConnectForm({ nodeId, container }: { nodeId: string; container: Container }) {
  const queryClient = useQueryClient();
  const networks = useQuery({
    queryKey: [...nodeKey(nodeId), 'networks', 'choices'],
    queryFn: () =>
      call(
        api.GET('/api/containerhost/nodes/{nodeId}/networks', {
          params: { path: { nodeId }, query: { limit: 100 } },
        }),
      ),
  });
  const attached = new Set(container.networks.map((network) => network.name));
  const choices = (networks.data?.data ?? [])
    .filter((network) => !attached.has(network.name))
    .map((network) => ({ value: network.id, label: network.name }));
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { networkId: null as string | null },
    validate: { networkId: (value) => (value ? null : 'Choose a network') },
    reasonFields: { ALREADY_ATTACHED: 'networkId' },
    submit: ({ networkId }) =>
      call(
        api.POST('/api/containerhost/nodes/{nodeId}/networks/{networkId}/connect', {
          params: { path: { nodeId, networkId: networkId! } },
          body: { containerId: container.name },
        }),
      ),
    onDone: async (_, { networkId }) => {
      notifySuccess(`Connected ${container.name} to ${choices.find((c) => c.value === networkId)?.label}.`);
      form.reset();
      await queryClient.invalidateQueries({ queryKey: nodeKey(nodeId) });
    },
  });
  return (
    <InlineForm onSubmit={onSubmit} banner={banner} submitting={submitting} submitLabel="Connect">
      <Select
        label="Connect to a network"
        placeholder={choices.length ? 'Choose a network…' : 'No other network on this node'}
        data={choices}
        searchable
        {...form.getInputProps('networkId')}
      />
    </InlineForm>
  );
}

/** The networks a container is attached to; managers connect and disconnect it. */
export function ContainerNetworksPanel({ nodeId, container }: { nodeId: string; container: Container }) {
  const mayManage = useMayManageContainers(nodeId);
  const queryClient = useQueryClient();
  const columns: Column<Attachment>[] = [
    { header: 'Network', cell: (network) => network.name },
    { header: 'Address', cell: (network) => network.ipAddress || '—' },
  ];
  if (mayManage) {
    columns.push({
      header: 'Actions',
      cell: (network) => (
        <ConfirmButton
          size="xs"
          label="Disconnect"
          aria-label={`Disconnect from ${network.name}`}
          title={`Disconnect ${container.name} from ${network.name}?`}
          message="The container loses its address on this network at once."
          confirmLabel="Disconnect"
          onConfirm={async () => {
            await call(
              api.POST('/api/containerhost/nodes/{nodeId}/networks/{networkId}/disconnect', {
                params: { path: { nodeId, networkId: network.name } },
                body: { containerId: container.name },
              }),
            );
            notifySuccess(`Disconnected ${container.name} from ${network.name}.`);
            await queryClient.invalidateQueries({ queryKey: nodeKey(nodeId) });
          }}
        />
      ),
    });
  }
  return (
    <Stack gap="sm">
      {container.networks.length === 0 ? (
        <Text c="dimmed">Not attached to any network{mayManage ? ': connect it to one below.' : '.'}</Text>
      ) : (
        <DataTable
          label={`Networks of ${container.name}`}
          columns={columns}
          rows={container.networks}
          rowKey={(network) => network.name}
        />
      )}
      {mayManage && <ConnectForm nodeId={nodeId} container={container} />}
    </Stack>
  );
}
