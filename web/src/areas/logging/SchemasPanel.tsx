import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { api, call } from '../../api/client';
import type { Column } from '../../components/DataTable';
import { ServerList } from '../../components/ServerList';
import { FolderedList, folderFilter, folderForNew } from './FolderedList';
import { Draggable, type FolderChoice, moveInTree } from './FolderTree';
import { ItemActions } from './ItemActions';
import { MoveDialog, type MoveTarget } from './MoveDialog';
import { SCHEMAS_KEY, type Schema } from './queries';
import { SchemaDialog } from './SchemaDialog';

const asMoveTarget = (schema: Schema): MoveTarget => ({
  what: 'item',
  id: schema.id,
  name: schema.name,
  current: schema.folderId,
});

function SchemaList({ folder }: { folder: FolderChoice }) {
  // `null`: creating a schema; a schema: editing it.
  const [editing, setEditing] = useState<Schema | null | undefined>();
  const [moving, setMoving] = useState<MoveTarget | undefined>();
  const columns: Column<Schema>[] = [
    {
      header: 'Schema',
      cell: (schema) => (
        <Draggable target={asMoveTarget(schema)}>
          <Text fw={500}>{schema.name}</Text>
          {schema.description && (
            <Text size="sm" c="dimmed">
              {schema.description}
            </Text>
          )}
        </Draggable>
      ),
    },
    {
      header: 'Fields',
      cell: (schema) => (
        <Group gap={4}>
          {schema.fields.map((field) => (
            <Badge key={field.name} variant="light" tt="none">
              {field.name}: {field.type}
              {field.required ? ' (required)' : ''}
            </Badge>
          ))}
        </Group>
      ),
    },
    {
      header: 'Actions',
      cell: (schema) => (
        <ItemActions
          name={schema.name}
          onMove={() => setMoving(asMoveTarget(schema))}
          consequence="Environments that use it refuse the deletion; detach it from them first."
          remove={() =>
            call(api.DELETE('/api/logging/schemas/{id}', { params: { path: { id: schema.id } } }))
          }
        >
          <Button
            size="xs"
            variant="default"
            aria-label={`Edit ${schema.name}`}
            onClick={() => setEditing(schema)}
          >
            Edit
          </Button>
        </ItemActions>
      ),
    },
  ];
  return (
    <Stack>
      <Group justify="flex-end">
        <Button onClick={() => setEditing(null)}>Create schema</Button>
      </Group>
      <ServerList
        label="Schemas"
        queryKey={[...SCHEMAS_KEY, folder]}
        fetchPage={(query) =>
          call(api.GET('/api/logging/schemas', { params: { query: { ...query, ...folderFilter(folder) } } }))
        }
        columns={columns}
        rowKey={(schema) => schema.id}
        search="Search schemas"
        empty={{
          title: 'No schemas here',
          description:
            'Create a schema to describe the fields of log records; environments check records against it.',
          action: <Button onClick={() => setEditing(null)}>Create schema</Button>,
        }}
      />
      {editing !== undefined && (
        <SchemaDialog
          schema={editing ?? undefined}
          folderId={folderForNew(folder)}
          onClose={() => setEditing(undefined)}
        />
      )}
      {moving && (
        <MoveDialog
          kind="schema"
          target={moving}
          move={moveInTree('schema')}
          onClose={() => setMoving(undefined)}
        />
      )}
    </Stack>
  );
}

/** Schema folders beside the schemas they hold. */
export function SchemasPanel() {
  return <FolderedList kind="schema">{(folder) => <SchemaList folder={folder} />}</FolderedList>;
}
