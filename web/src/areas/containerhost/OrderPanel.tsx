import { ActionIcon, Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { InlineForm, useApiForm } from '../../components/api-form';
import { type Column, DataTable } from '../../components/DataTable';
import { notifyError, notifySuccess } from '../../components/notify';
import { QueryView } from '../../components/QueryView';
import { CONTAINERHOST_KEY, type ContainerRow, nodeKey, useMayManageContainers } from './queries';
import { moveItem, sortOrders } from './reorder';

const FOLDERS_KEY = [...CONTAINERHOST_KEY, 'folders', 'container'];

function CreateFolderForm() {
  const queryClient = useQueryClient();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { name: '' },
    reasonFields: { FOLDER_NAME_TAKEN: 'name' },
    submit: ({ name }) =>
      call(api.POST('/api/containerhost/folders', { body: { name, resourceType: 'container' } })),
    onDone: async ({ data }) => {
      notifySuccess(`Created folder ${data.name}.`);
      form.reset();
      await queryClient.invalidateQueries({ queryKey: FOLDERS_KEY });
    },
  });
  return (
    <InlineForm onSubmit={onSubmit} banner={banner} submitting={submitting} submitLabel="Create folder">
      <TextInput label="New container folder" {...form.getInputProps('name')} />
    </InlineForm>
  );
}

/**
 * The order (and folder) of a node's containers, which every list of them follows: move a container
 * up or down with its buttons (keyboard and screen readers included) or put it in a folder; each
 * change saves the whole order at once.
 */
export function OrderPanel({ nodeId }: { nodeId: string }) {
  const mayManage = useMayManageContainers();
  const queryClient = useQueryClient();
  const containers = useQuery({
    queryKey: [...nodeKey(nodeId), 'containers', 'order'],
    queryFn: () =>
      call(
        api.GET('/api/containerhost/nodes/{nodeId}/containers', {
          params: { path: { nodeId }, query: { all: true, limit: 100 } },
        }),
      ),
  });
  const folders = useQuery({
    queryKey: FOLDERS_KEY,
    queryFn: () =>
      call(
        api.GET('/api/containerhost/folders', {
          params: { query: { resourceType: 'container', limit: 100 } },
        }),
      ),
  });
  const save = async (
    rows: ContainerRow[],
    folderOf: (row: ContainerRow) => string | null = (row) => row.folderId,
  ) => {
    try {
      await call(
        api.PUT('/api/containerhost/folders/reorder-resources', {
          body: {
            resourceType: 'container',
            items: sortOrders(rows).map(({ item, sortOrder }) => ({
              nodeId,
              resourceKey: item.resourceKey,
              sortOrder,
              folderId: folderOf(item),
            })),
          },
        }),
      );
      await queryClient.invalidateQueries({ queryKey: nodeKey(nodeId) });
    } catch (error) {
      notifyError(error);
    }
  };
  const folderChoices = [
    { value: '', label: 'No folder' },
    ...(folders.data?.data.map((folder) => ({ value: folder.id, label: folder.name })) ?? []),
  ];
  return (
    <Stack>
      {mayManage && <CreateFolderForm />}
      <QueryView query={containers}>
        {({ data: rows }) => {
          const columns: Column<ContainerRow>[] = [
            { header: 'Container', cell: (row) => row.name },
            {
              header: 'Folder',
              cell: (row) => (
                <NativeSelect
                  aria-label={`Folder of ${row.name}`}
                  data={folderChoices}
                  value={row.folderId ?? ''}
                  disabled={!mayManage}
                  onChange={(event) => {
                    const folderId = event.currentTarget.value || null;
                    void save(rows, (other) => (other.name === row.name ? folderId : other.folderId));
                  }}
                />
              ),
            },
            ...(mayManage
              ? [
                  {
                    header: 'Move',
                    cell: (row: ContainerRow) => {
                      const at = rows.indexOf(row);
                      return (
                        <Group gap={4} wrap="nowrap">
                          <ActionIcon
                            variant="default"
                            aria-label={`Move ${row.name} up`}
                            disabled={at === 0}
                            onClick={() => void save(moveItem(rows, at, at - 1))}
                          >
                            ↑
                          </ActionIcon>
                          <ActionIcon
                            variant="default"
                            aria-label={`Move ${row.name} down`}
                            disabled={at === rows.length - 1}
                            onClick={() => void save(moveItem(rows, at, at + 1))}
                          >
                            ↓
                          </ActionIcon>
                        </Group>
                      );
                    },
                  },
                ]
              : []),
          ];
          return rows.length === 0 ? (
            <Text c="dimmed">No containers to order on this node.</Text>
          ) : (
            <>
              <DataTable label="Order of containers" columns={columns} rows={rows} rowKey={(row) => row.id} />
              {containers.data && containers.data.pagination.total > rows.length && (
                <Text size="sm" c="dimmed">
                  The first {rows.length} of {containers.data.pagination.total} containers are shown.
                </Text>
              )}
              <Button variant="default" size="xs" w="fit-content" onClick={() => void containers.refetch()}>
                Reload order
              </Button>
            </>
          );
        }}
      </QueryView>
    </Stack>
  );
}
