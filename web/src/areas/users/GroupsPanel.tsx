import { Badge, Button, Group as Row, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { type Column, DataTable } from '../../components/DataTable';
import { notifySuccess } from '../../components/notify';
import { QueryView } from '../../components/QueryView';
import { GroupDialog } from './GroupDialog';
import { GroupSettingsDialog } from './GroupSettingsDialog';
import { ADMIN_KEY, type Group, useGroups } from './queries';
import { ScopeBadges } from './ScopeBadges';

/**
 * The groups with their scopes, member counts and whether they require two-factor sign-in; create
 * one, edit its scopes or settings (name, two-factor), or delete it.
 */
export function GroupsPanel() {
  const groups = useGroups();
  // `null`: creating a group; a group: editing its scopes.
  const [dialog, setDialog] = useState<Group | null | undefined>();
  const [settings, setSettings] = useState<Group | undefined>();
  const queryClient = useQueryClient();
  const remove = async (group: Group) => {
    await call(api.DELETE('/api/admin/groups/{id}', { params: { path: { id: group.id } } }));
    notifySuccess(`Deleted the group ${group.name}.`);
    await queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
  };
  const columns: Column<Group>[] = [
    { header: 'Group', cell: (group) => group.name },
    {
      header: 'Scopes',
      cell: (group) =>
        group.scopes.length === 0 ? (
          <Text size="sm" c="dimmed">
            None
          </Text>
        ) : (
          <ScopeBadges scopes={group.scopes} />
        ),
    },
    { header: 'Members', cell: (group) => group.userCount },
    {
      header: 'Two-factor',
      cell: (group) =>
        group.requireMfa ? (
          <Badge variant="light" color="green">
            Required
          </Badge>
        ) : (
          <Text size="sm" c="dimmed">
            Optional
          </Text>
        ),
    },
    {
      header: 'Actions',
      cell: (group) => (
        <Row gap={6}>
          <Button
            size="xs"
            variant="default"
            aria-label={`Edit scopes of ${group.name}`}
            onClick={() => setDialog(group)}
          >
            Edit scopes
          </Button>
          <Button
            size="xs"
            variant="default"
            aria-label={`Settings of ${group.name}`}
            onClick={() => setSettings(group)}
          >
            Settings
          </Button>
          <ConfirmButton
            size="xs"
            label="Delete"
            aria-label={`Delete group ${group.name}`}
            title={`Delete the group ${group.name}?`}
            message="Only a group without members can be deleted; move its members first."
            confirmLabel="Delete"
            onConfirm={() => remove(group)}
          />
        </Row>
      ),
    },
  ];
  return (
    <Stack>
      <Row justify="flex-end">
        <Button onClick={() => setDialog(null)}>Create group</Button>
      </Row>
      <QueryView query={groups}>
        {({ data }) => (
          <DataTable label="Groups" columns={columns} rows={data} rowKey={(group) => group.id} />
        )}
      </QueryView>
      {settings && <GroupSettingsDialog group={settings} onClose={() => setSettings(undefined)} />}
      {dialog !== undefined && (
        <GroupDialog group={dialog ?? undefined} onClose={() => setDialog(undefined)} />
      )}
    </Stack>
  );
}
