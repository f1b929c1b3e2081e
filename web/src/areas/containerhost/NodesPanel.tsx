import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, call } from '../../api/client';
import { mayAccess, mayUse } from '../../auth/access';
import { useCurrentUser } from '../../auth/session';
import { ConfirmButton } from '../../components/ConfirmButton';
import type { Column } from '../../components/DataTable';
import { notifySuccess } from '../../components/notify';
import { PageHeader } from '../../components/PageHeader';
import { ServerList } from '../../components/ServerList';
import { NodeDialog } from './NodeDialog';
import {
  CONTAINERHOST_KEY,
  type EngineNode,
  NODE_LIST_KEY,
  nodePath,
  useMayManageContainers,
} from './queries';

function NodeActions({ node }: { node: EngineNode }) {
  const queryClient = useQueryClient();
  const [editing, edit] = useDisclosure(false);
  const remove = async () => {
    await call(api.DELETE('/api/containerhost/nodes/{nodeId}', { params: { path: { nodeId: node.id } } }));
    notifySuccess(`Removed ${node.name}.`);
    await queryClient.invalidateQueries({ queryKey: CONTAINERHOST_KEY });
  };
  return (
    <Group gap="xs" wrap="nowrap">
      <Button size="xs" variant="default" onClick={edit.open} aria-label={`Edit node ${node.name}`}>
        Edit
      </Button>
      <ConfirmButton
        size="xs"
        label="Remove"
        aria-label={`Remove node ${node.name}`}
        title={`Remove ${node.name}?`}
        message="The gateway forgets the node, its stored credentials and health checks; the engine and its containers are left alone."
        confirmLabel="Remove node"
        onConfirm={remove}
      />
      <NodeDialog opened={editing} onClose={edit.close} node={node} />
    </Group>
  );
}

/**
 * The engine nodes the user may see, searchable by name; adding a node needs containerhost:manage,
 * editing and removing one containerhost:manage on it.
 */
export function NodesPanel() {
  const { scopes } = useCurrentUser();
  const mayManage = useMayManageContainers();
  const mayManageSome = mayAccess(scopes, { anyOf: ['containerhost:manage'] });
  const [adding, add] = useDisclosure(false);
  const addButton = mayManage ? <Button onClick={add.open}>Add node</Button> : undefined;
  const columns: Column<EngineNode>[] = [
    {
      header: 'Node',
      cell: (node) => (
        <Anchor component={Link} to={nodePath(node.id)}>
          {node.name}
        </Anchor>
      ),
    },
    {
      header: 'Endpoint',
      cell: (node) => (
        <Text size="sm" style={{ wordBreak: 'break-all' }}>
          {node.endpoint}
        </Text>
      ),
    },
    { header: 'Transport', cell: (node) => node.transport },
    ...(mayManageSome
      ? [
          {
            header: 'Actions',
            cell: (node: EngineNode) =>
              mayUse(scopes, 'containerhost:manage', node.id) ? <NodeActions node={node} /> : null,
          },
        ]
      : []),
  ];
  return (
    <Stack>
      <PageHeader
        title="Containers"
        description="Container hosts the gateway manages through the Docker Engine API (Docker or Podman)."
        action={addButton}
      />
      <ServerList
        label="Nodes"
        queryKey={NODE_LIST_KEY}
        fetchPage={(query) => call(api.GET('/api/containerhost/nodes', { params: { query } }))}
        columns={columns}
        rowKey={(node) => node.id}
        search="Search nodes"
        empty={{
          title: 'No nodes yet',
          description: mayManage
            ? 'Add a node: the endpoint of a Docker or Podman engine, e.g. unix:///run/podman/podman.sock.'
            : 'Nobody has added a container host yet. Someone with containerhost:manage can add one.',
          action: addButton,
        }}
      />
      {mayManage && <NodeDialog opened={adding} onClose={add.close} />}
    </Stack>
  );
}
