import { Anchor, Button, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, call } from '../../api/client';
import { mayUse } from '../../auth/access';
import { useCurrentUser } from '../../auth/session';
import type { Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { RelativeTime } from '../../components/RelativeTime';
import { ServerList } from '../../components/ServerList';
import { NodeDialog } from './NodeDialog';
import { NODES_KEY, type StorageNode } from './queries';

const columns: Column<StorageNode>[] = [
  {
    header: 'Node',
    cell: (node) => (
      <Anchor component={Link} to={`/nodes/${node.id}`} fw={500}>
        {node.name}
      </Anchor>
    ),
  },
  {
    header: 'Root directory',
    cell: (node) => (
      <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
        {node.rootPath}
      </Text>
    ),
  },
  { header: 'Added', cell: (node) => <RelativeTime value={node.createdAt} /> },
];

/** The storage nodes: search, add; a name opens the node with its uploads. */
export function NodeList() {
  const canManage = mayUse(useCurrentUser().scopes, 'nodes:manage');
  const [adding, setAdding] = useState(false);
  const addButton = canManage ? <Button onClick={() => setAdding(true)}>Add node</Button> : undefined;
  return (
    <>
      <PageHeader
        title="Nodes"
        description="Storage nodes: directories on the gateway's host that files are uploaded into, resumably."
        action={addButton}
      />
      <ServerList
        label="Nodes"
        queryKey={[...NODES_KEY, 'list']}
        fetchPage={(query) => call(api.GET('/api/nodes', { params: { query } }))}
        columns={columns}
        rowKey={(node) => node.id}
        search="Search nodes"
        empty={{
          title: 'No nodes yet',
          description: canManage
            ? 'Add a node: a name and a directory on the gateway host to upload files into.'
            : 'Ask someone with nodes:manage to add one.',
          action: addButton,
        }}
      />
      {adding && <NodeDialog onClose={() => setAdding(false)} />}
    </>
  );
}
