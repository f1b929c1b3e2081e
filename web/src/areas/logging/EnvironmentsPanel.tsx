import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, call } from '../../api/client';
import type { Column } from '../../components/DataTable';
import { ServerList } from '../../components/ServerList';
import { EnvironmentDialog } from './EnvironmentDialog';
import { FolderedList, folderFilter, folderForNew } from './FolderedList';
import { Draggable, type FolderChoice, moveInTree } from './FolderTree';
import { ItemActions } from './ItemActions';
import { MoveDialog, type MoveTarget } from './MoveDialog';
import { ENVIRONMENTS_KEY, type Environment, useSchemaChoices } from './queries';

const asMoveTarget = (environment: Environment): MoveTarget => ({
  what: 'item',
  id: environment.id,
  name: environment.name,
  current: environment.folderId,
});

function EnvironmentList({ folder }: { folder: FolderChoice }) {
  const schemas = useSchemaChoices();
  const [creating, setCreating] = useState(false);
  const [moving, setMoving] = useState<MoveTarget | undefined>();
  const schemaName = (id: string | null) =>
    id ? (schemas.data?.items.find((schema) => schema.id === id)?.name ?? 'A schema') : 'None';
  const columns: Column<Environment>[] = [
    {
      header: 'Environment',
      cell: (environment) => (
        <Draggable target={asMoveTarget(environment)}>
          <Anchor component={Link} to={`/logging/environments/${environment.id}`} fw={500}>
            {environment.name}
          </Anchor>
          {environment.description && (
            <Text size="sm" c="dimmed">
              {environment.description}
            </Text>
          )}
        </Draggable>
      ),
    },
    { header: 'Schema', cell: (environment) => schemaName(environment.schemaId) },
    { header: 'Kept', cell: (environment) => `${environment.retentionDays} days` },
    {
      header: 'Actions',
      cell: (environment) => (
        <ItemActions
          name={environment.name}
          onMove={() => setMoving(asMoveTarget(environment))}
          consequence="Its ingest tokens stop working at once and its records are dropped."
          remove={() =>
            call(api.DELETE('/api/logging/environments/{id}', { params: { path: { id: environment.id } } }))
          }
        />
      ),
    },
  ];
  return (
    <Stack>
      <Group justify="flex-end">
        <Button onClick={() => setCreating(true)}>Create environment</Button>
      </Group>
      <ServerList
        label="Environments"
        queryKey={[...ENVIRONMENTS_KEY, folder]}
        fetchPage={(query) =>
          call(
            api.GET('/api/logging/environments', {
              params: { query: { ...query, ...folderFilter(folder) } },
            }),
          )
        }
        columns={columns}
        rowKey={(environment) => environment.id}
        search="Search environments"
        empty={{
          title: 'No environments here',
          description: 'Create an environment to receive logs, then give its senders an ingest token.',
          action: <Button onClick={() => setCreating(true)}>Create environment</Button>,
        }}
      />
      {creating && <EnvironmentDialog folderId={folderForNew(folder)} onClose={() => setCreating(false)} />}
      {moving && (
        <MoveDialog
          kind="environment"
          target={moving}
          move={moveInTree('environment')}
          onClose={() => setMoving(undefined)}
        />
      )}
    </Stack>
  );
}

/** Environment folders beside the environments they hold. */
export function EnvironmentsPanel() {
  return <FolderedList kind="environment">{(folder) => <EnvironmentList folder={folder} />}</FolderedList>;
}
