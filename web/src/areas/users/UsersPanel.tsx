import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { api, call } from '../../api/client';
import type { Column } from '../../components/DataTable';
import { ServerList } from '../../components/ServerList';
import { CreateUserDialog } from './CreateUserDialog';
import { EditUserDialog } from './EditUserDialog';
import { USERS_KEY, type User } from './queries';

/** The users, searchable by email or name, with create and edit. */
export function UsersPanel() {
  const [creating, { open, close }] = useDisclosure(false);
  const [editing, setEditing] = useState<User | undefined>();
  const columns: Column<User>[] = [
    {
      header: 'User',
      cell: (user) => (
        <div>
          <Text fw={500}>{user.name}</Text>
          <Text size="sm" c="dimmed">
            {user.email}
          </Text>
        </div>
      ),
    },
    { header: 'Group', cell: (user) => user.groupName },
    {
      header: 'Status',
      cell: (user) => (
        <Group gap={6}>
          {user.disabled ? <Badge color="gray">Disabled</Badge> : <Badge color="green">Active</Badge>}
          {!user.hasPassword && (
            <Badge color="yellow" variant="light">
              No password
            </Badge>
          )}
        </Group>
      ),
    },
    {
      header: 'Actions',
      cell: (user) => (
        <Button
          size="xs"
          variant="default"
          aria-label={`Edit ${user.email}`}
          onClick={() => setEditing(user)}
        >
          Edit
        </Button>
      ),
    },
  ];
  return (
    <Stack>
      <Group justify="flex-end">
        <Button onClick={open}>Create user</Button>
      </Group>
      <ServerList
        label="Users"
        queryKey={USERS_KEY}
        fetchPage={(query) => call(api.GET('/api/admin/users', { params: { query } }))}
        columns={columns}
        rowKey={(user) => user.id}
        search="Search users"
        empty={{
          title: 'No users yet',
          description: 'Create a user, put them in a group, and give them a password to sign in with.',
          action: <Button onClick={open}>Create user</Button>,
        }}
      />
      <CreateUserDialog opened={creating} onClose={close} />
      {editing && <EditUserDialog user={editing} onClose={() => setEditing(undefined)} />}
    </Stack>
  );
}
