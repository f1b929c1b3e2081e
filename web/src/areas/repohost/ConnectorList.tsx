import { Anchor, Button, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, call } from '../../api/client';
import { mayUse } from '../../auth/access';
import { useCurrentUser } from '../../auth/session';
import type { Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { ServerList } from '../../components/ServerList';
import { NewConnectorDialog } from './NewConnectorDialog';
import { CONNECTORS_KEY, type Connector, connectorPath } from './queries';
import { TestOutcome } from './TestOutcome';
import { useRetest } from './use-retest';

/** The repository-host connectors: search, add (test first), re-test; a name opens one. */
export function ConnectorList() {
  const canManage = mayUse(useCurrentUser().scopes, 'integrations:manage');
  const [adding, setAdding] = useState(false);
  const { retest, testing } = useRetest();
  const columns: Column<Connector>[] = [
    {
      header: 'Connector',
      cell: (connector) => (
        <div>
          <Anchor component={Link} to={connectorPath(connector.id)} fw={500}>
            {connector.name}
          </Anchor>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {connector.baseUrl}
          </Text>
        </div>
      ),
    },
    {
      header: 'Token',
      cell: (connector) => (
        <Text size="sm">
          {connector.remoteUser ? `@${connector.remoteUser.username}` : 'unknown user'}
          {connector.tokenExpiresAt ? `, expires ${connector.tokenExpiresAt}` : ''}
        </Text>
      ),
    },
    {
      header: 'Allowlist',
      cell: ({ allowlist }) => (allowlist.length === 1 ? '1 entry' : `${allowlist.length} entries`),
    },
    { header: 'Last test', cell: (connector) => <TestOutcome connector={connector} /> },
    ...(canManage
      ? [
          {
            header: 'Actions',
            cell: (connector: Connector) => (
              <Button
                size="xs"
                variant="default"
                loading={testing === connector.id}
                aria-label={`Re-test ${connector.name}`}
                onClick={() => void retest(connector)}
              >
                Re-test
              </Button>
            ),
          },
        ]
      : []),
  ];
  const addButton = canManage ? (
    <Button onClick={() => setAdding(true)}>Add repository host</Button>
  ) : undefined;
  return (
    <>
      <PageHeader
        title="Integrations"
        description="Repository hosts (GitLab API v4) the gateway acts on with an access token."
        action={addButton}
      />
      <ServerList
        label="Repository hosts"
        queryKey={[...CONNECTORS_KEY, 'list']}
        fetchPage={(query) => call(api.GET('/api/integrations/repohost/connectors', { params: { query } }))}
        columns={columns}
        rowKey={(connector) => connector.id}
        search="Search repository hosts"
        empty={{
          title: 'No repository host yet',
          description: canManage
            ? 'Add a GitLab host with a personal access token: the gateway tests it and shows what it can do before anything is saved.'
            : 'Ask someone with integrations:manage to add one.',
          action: addButton,
        }}
      />
      {adding && <NewConnectorDialog onClose={() => setAdding(false)} />}
    </>
  );
}
