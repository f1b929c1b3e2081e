import { Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, call } from '../../api/client';
import { mayUse } from '../../auth/access';
import { useCurrentUser } from '../../auth/session';
import { ConfirmButton } from '../../components/ConfirmButton';
import type { Column } from '../../components/DataTable';
import { notifyError, notifySuccess } from '../../components/notify';
import { PageHeader } from '../../components/PageHeader';
import { ServerList } from '../../components/ServerList';
import { ConnectionStatus } from './ConnectionStatus';
import { DatabaseDialog } from './DatabaseDialog';
import { DATABASES_KEY, type Database, type DatabaseStatus } from './queries';

/** Asks the gateway to reach the database now and shows what it found in place. */
function TestConnection({ database }: { database: Database }) {
  const [status, setStatus] = useState<DatabaseStatus | undefined>();
  const [testing, setTesting] = useState(false);
  const test = async () => {
    setTesting(true);
    try {
      const { data } = await call(api.GET('/api/databases/{id}', { params: { path: { id: database.id } } }));
      setStatus(data.status);
    } catch (error) {
      notifyError(error);
    } finally {
      setTesting(false);
    }
  };
  return (
    <Stack gap={4} align="flex-start">
      <Button
        size="xs"
        variant="default"
        loading={testing}
        aria-label={`Test connection to ${database.name}`}
        onClick={() => void test()}
      >
        Test connection
      </Button>
      {status && <ConnectionStatus status={status} compact />}
    </Stack>
  );
}

/** The registered databases: search, add, test, edit, remove; a name opens its console. */
export function DatabaseList() {
  const queryClient = useQueryClient();
  const canManage = mayUse(useCurrentUser().scopes, 'databases:manage');
  // `null`: adding a database; a database: editing it.
  const [dialog, setDialog] = useState<Database | null | undefined>();
  const remove = async (database: Database) => {
    await call(api.DELETE('/api/databases/{id}', { params: { path: { id: database.id } } }));
    notifySuccess(`Removed ${database.name}.`);
    await queryClient.invalidateQueries({ queryKey: DATABASES_KEY });
  };
  const columns: Column<Database>[] = [
    {
      header: 'Database',
      cell: (database) => (
        <div>
          <Anchor component={Link} to={`/databases/${database.id}`} fw={500}>
            {database.name}
          </Anchor>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {database.url} · db {database.dbIndex}
          </Text>
        </div>
      ),
    },
    {
      header: 'Access',
      cell: (database) => (
        <Group gap={6}>
          <Badge variant="light" color="gray" tt="none">
            {database.username ?? 'default user'}
          </Badge>
          {database.hasPassword && (
            <Badge variant="light" color="gray">
              Password
            </Badge>
          )}
          {database.tls && <Badge variant="light">TLS</Badge>}
          {database.allowDangerous && (
            <Badge variant="light" color="orange">
              Dangerous allowed
            </Badge>
          )}
        </Group>
      ),
    },
    { header: 'Connection', cell: (database) => <TestConnection database={database} /> },
    ...(canManage
      ? [
          {
            header: 'Actions',
            cell: (database: Database) => (
              <Group gap="xs">
                <Button
                  size="xs"
                  variant="default"
                  aria-label={`Edit ${database.name}`}
                  onClick={() => setDialog(database)}
                >
                  Edit
                </Button>
                <ConfirmButton
                  size="xs"
                  label="Remove"
                  aria-label={`Remove ${database.name}`}
                  title={`Remove ${database.name}?`}
                  message="Its registration, its connections and everyone's command history on it go. The data on the server stays."
                  confirmLabel="Remove"
                  onConfirm={() => remove(database)}
                />
              </Group>
            ),
          },
        ]
      : []),
  ];
  const addButton = canManage ? <Button onClick={() => setDialog(null)}>Add database</Button> : undefined;
  return (
    <>
      <PageHeader
        title="Databases"
        description="Key-value databases (Redis protocol) and a console to run commands on them."
        action={addButton}
      />
      <ServerList
        label="Databases"
        queryKey={[...DATABASES_KEY, 'list']}
        fetchPage={(query) => call(api.GET('/api/databases', { params: { query } }))}
        columns={columns}
        rowKey={(database) => database.id}
        search="Search databases"
        empty={{
          title: 'No databases yet',
          description: canManage
            ? 'Add a Redis, Valkey or KeyDB server by its URL to run commands on it here.'
            : 'Ask someone with databases:manage to register one.',
          action: addButton,
        }}
      />
      {dialog !== undefined && (
        <DatabaseDialog database={dialog ?? undefined} onClose={() => setDialog(undefined)} />
      )}
    </>
  );
}
