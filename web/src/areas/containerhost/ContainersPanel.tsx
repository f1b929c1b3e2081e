import { Anchor, Badge, Button, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link } from 'react-router';
import { api, call } from '../../api/client';
import type { Column } from '../../components/DataTable';
import { ServerList } from '../../components/ServerList';
import { ContainerActions } from './ContainerActions';
import { CreateContainerDialog } from './CreateContainerDialog';
import { type ContainerRow, formatPort, nodeKey, nodePath, useMayManageContainers } from './queries';

const STATE_COLORS: Record<string, string> = { running: 'green', paused: 'yellow', restarting: 'blue' };

/** A container's state as a badge: green running, yellow paused, grey otherwise (created, exited…). */
export function StateBadge({ state }: { state: string }) {
  return (
    <Badge color={STATE_COLORS[state] ?? 'gray'} variant="light" style={{ minWidth: 'max-content' }}>
      {state}
    </Badge>
  );
}

/** A node's containers, stopped ones included, with their lifecycle actions and create. */
export function ContainersPanel({ nodeId }: { nodeId: string }) {
  const mayManage = useMayManageContainers(nodeId);
  const [creating, create] = useDisclosure(false);
  const createButton = mayManage ? <Button onClick={create.open}>Create container</Button> : undefined;
  const columns: Column<ContainerRow>[] = [
    {
      header: 'Container',
      cell: (row) => (
        <div>
          <Anchor component={Link} to={nodePath(nodeId, `/containers/${encodeURIComponent(row.name)}`)}>
            {row.name}
          </Anchor>
          <Text size="xs" c="dimmed">
            {row.status}
          </Text>
        </div>
      ),
    },
    { header: 'State', cell: (row) => <StateBadge state={row.state} /> },
    {
      header: 'Image',
      cell: (row) => (
        <Text size="sm" style={{ wordBreak: 'break-all' }}>
          {row.image}
        </Text>
      ),
    },
    {
      header: 'Ports',
      cell: (row) => (row.ports.length ? row.ports.map(formatPort).join(', ') : '—'),
    },
    ...(mayManage
      ? [
          {
            header: 'Actions',
            cell: (row: ContainerRow) => <ContainerActions nodeId={nodeId} container={row} />,
          },
        ]
      : []),
  ];
  return (
    <Stack>
      {createButton && <div>{createButton}</div>}
      <ServerList
        label="Containers"
        queryKey={[...nodeKey(nodeId), 'containers']}
        fetchPage={(query) =>
          call(
            api.GET('/api/containerhost/nodes/{nodeId}/containers', {
              params: { path: { nodeId }, query: { ...query, all: true } },
            }),
          )
        }
        columns={columns}
        rowKey={(row) => row.id}
        search="Search containers"
        empty={{
          title: 'No containers on this node',
          description: mayManage
            ? 'Create one from an image on the node (pull it on the Images tab first).'
            : 'Containers created on this engine show here.',
          action: createButton,
        }}
      />
      {mayManage && <CreateContainerDialog nodeId={nodeId} opened={creating} onClose={create.close} />}
    </Stack>
  );
}
