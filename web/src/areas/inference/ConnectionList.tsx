import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import type { Column } from '../../components/DataTable';
import { notifyError, notifySuccess } from '../../components/notify';
import { RelativeTime } from '../../components/RelativeTime';
import { ServerList } from '../../components/ServerList';
import { ConnectionTestDialog } from './ConnectionTestDialog';
import { EditConnectionDialog } from './EditConnectionDialog';
import { AUTH_TYPE_LABELS, CONNECTIONS_KEY, type Connection, type ConnectionTest } from './queries';

function Credentials({ connection }: { connection: Connection }) {
  return (
    <Stack gap={2}>
      <Group gap={4}>
        <Badge variant="light" tt="none">
          {AUTH_TYPE_LABELS[connection.authType]}
        </Badge>
        {connection.hasApiKey && (
          <Badge variant="light" color="gray" tt="none">
            key stored
          </Badge>
        )}
        {connection.hasRefreshToken && (
          <Badge variant="light" color="gray" tt="none">
            renews itself
          </Badge>
        )}
      </Group>
      {connection.accessTokenExpiresAt && (
        <Text size="sm" c="dimmed">
          Access until <RelativeTime value={connection.accessTokenExpiresAt} />
        </Text>
      )}
      {connection.lastRefreshError && (
        <Text size="sm" c="red">
          Renewal failed: {connection.lastRefreshError}
        </Text>
      )}
    </Stack>
  );
}

function LastTest({ connection }: { connection: Connection }) {
  if (connection.lastTestOk === null)
    return (
      <Text size="sm" c="dimmed">
        Not tested
      </Text>
    );
  return (
    <Stack gap={2}>
      <Group gap="xs">
        {connection.lastTestOk ? <Badge color="green">Passed</Badge> : <Badge color="red">Failed</Badge>}
        <Text size="sm" c="dimmed">
          <RelativeTime value={connection.lastTestedAt} />
        </Text>
      </Group>
      {connection.lastTestError && <Text size="sm">{connection.lastTestError}</Text>}
    </Stack>
  );
}

/** The connections with their credentials and last test; test (the models), edit, renew, delete. */
export function ConnectionList({ canManage }: { canManage: boolean }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Connection | undefined>();
  const [testing, setTesting] = useState<string | undefined>();
  const [tested, setTested] = useState<{ connection: Connection; result: ConnectionTest } | undefined>();
  const changed = () => queryClient.invalidateQueries({ queryKey: CONNECTIONS_KEY });
  const path = (connection: Connection) => ({ params: { path: { id: connection.id } } });

  const test = async (connection: Connection) => {
    setTesting(connection.id);
    try {
      const { data } = await call(api.POST('/api/inference/connections/{id}/test', path(connection)));
      setTested({ connection, result: data });
      await changed();
    } catch (error) {
      notifyError(error);
    } finally {
      setTesting(undefined);
    }
  };
  const renew = async (connection: Connection) => {
    try {
      await call(api.POST('/api/inference/connections/{id}/refresh', path(connection)));
      notifySuccess(`Renewed the access of ${connection.name}.`);
    } catch (error) {
      notifyError(error);
    }
    await changed();
  };
  const remove = async (connection: Connection) => {
    await call(api.DELETE('/api/inference/connections/{id}', path(connection)));
    notifySuccess(`Deleted ${connection.name}.`);
    await changed();
  };

  const columns: Column<Connection>[] = [
    {
      header: 'Connection',
      cell: (connection) => (
        <div>
          <Text fw={500}>{connection.name}</Text>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {connection.providerLabel ?? connection.providerId} · {connection.effectiveBaseUrl}
          </Text>
        </div>
      ),
    },
    { header: 'Credentials', cell: (connection) => <Credentials connection={connection} /> },
    { header: 'Last test', cell: (connection) => <LastTest connection={connection} /> },
  ];
  if (canManage)
    columns.push({
      header: 'Actions',
      cell: (connection) => (
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            loading={testing === connection.id}
            aria-label={`Test ${connection.name}`}
            onClick={() => void test(connection)}
          >
            Test
          </Button>
          <Button
            size="xs"
            variant="default"
            aria-label={`Edit ${connection.name}`}
            onClick={() => setEditing(connection)}
          >
            Edit
          </Button>
          {connection.hasRefreshToken && (
            <Button
              size="xs"
              variant="default"
              aria-label={`Renew ${connection.name}`}
              onClick={() => void renew(connection)}
            >
              Renew
            </Button>
          )}
          <ConfirmButton
            size="xs"
            label="Delete"
            aria-label={`Delete ${connection.name}`}
            title={`Delete ${connection.name}?`}
            message="The connection and its stored key or tokens go. Nothing changes at the provider."
            confirmLabel="Delete"
            onConfirm={() => remove(connection)}
          />
        </Group>
      ),
    });

  return (
    <>
      <ServerList
        label="Connections"
        queryKey={[...CONNECTIONS_KEY, 'list']}
        fetchPage={(query) => call(api.GET('/api/inference/connections', { params: { query } }))}
        columns={columns}
        rowKey={(connection) => connection.id}
        search="Search connections"
        empty={{
          title: 'No connection yet',
          description: canManage
            ? 'Pick a provider below and connect with an API key or by signing in.'
            : 'Ask someone with inference:manage to connect a provider.',
        }}
      />
      {editing && <EditConnectionDialog connection={editing} onClose={() => setEditing(undefined)} />}
      {tested && <ConnectionTestDialog {...tested} onClose={() => setTested(undefined)} />}
    </>
  );
}
