import { Badge, Button, Group as Row, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { type Column, DataTable } from '../../components/DataTable';
import { QueryView } from '../../components/QueryView';
import { GroupDialog } from './GroupDialog';
import { type Group, useGroups } from './queries';

/** The groups with their scopes and member counts; create one, edit its scopes. */
export function GroupsPanel() {
  const groups = useGroups();
  // `null`: creating a group; a group: editing its scopes.
  const [dialog, setDialog] = useState<Group | null | undefined>();
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
          <Row gap={6}>
            {group.scopes.map((scope) => (
              <Badge key={scope} variant="light" tt="none">
                {scope}
              </Badge>
            ))}
          </Row>
        ),
    },
    { header: 'Members', cell: (group) => group.userCount },
    {
      header: 'Actions',
      cell: (group) => (
        <Button
          size="xs"
          variant="default"
          aria-label={`Edit scopes of ${group.name}`}
          onClick={() => setDialog(group)}
        >
          Edit scopes
        </Button>
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
      {dialog !== undefined && (
        <GroupDialog group={dialog ?? undefined} onClose={() => setDialog(undefined)} />
      )}
    </Stack>
  );
}
