import { ActionIcon, Anchor, Box, Button, Grid, Group, NativeSelect, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { fetchAllPages } from '../../api/all-pages';
import { api, call } from '../../api/client';
import { type Column, DataTable } from '../../components/DataTable';
import { notifyError, notifySuccess } from '../../components/notify';
import { QueryView } from '../../components/QueryView';
import { Section } from '../../components/Section';
import { ContainerFolders, FOLDERS_KEY, type Folder, orderDrag } from './ContainerFolders';
import { type ContainerRow, nodeKey, nodePath, useMayManageContainers } from './queries';
import { moveItem, sortOrders } from './reorder';

/** The most containers one reorder saves (the API's limit), so the most this tab orders. */
const MOST_ORDERED = 1000;
/** Below the shell's fixed header. */
const STICKY_TOP = 'calc(var(--app-shell-header-offset, 56px) + var(--mantine-spacing-md))';

/**
 * The order (and folder) of a node's containers, which every list of them follows, and the folders.
 * Drag a container onto another to put it at that place, or onto a folder; the arrows and the folder
 * choice of each row do the same by keyboard. Each change saves the whole order at once.
 */
export function OrderPanel({ nodeId }: { nodeId: string }) {
  const mayManage = useMayManageContainers();
  const queryClient = useQueryClient();
  const containers = useQuery({
    queryKey: [...nodeKey(nodeId), 'containers', 'order'],
    queryFn: () =>
      fetchAllPages(
        (query) =>
          call(
            api.GET('/api/containerhost/nodes/{nodeId}/containers', {
              params: { path: { nodeId }, query: { ...query, all: true } },
            }),
          ),
        MOST_ORDERED,
      ),
  });
  const folders = useQuery({
    queryKey: FOLDERS_KEY,
    queryFn: () =>
      fetchAllPages((query) =>
        call(
          api.GET('/api/containerhost/folders', {
            params: { query: { ...query, resourceType: 'container' } },
          }),
        ),
      ),
  });
  const rows = containers.data?.items ?? [];
  const folderList = folders.data?.items ?? [];

  const save = async (
    ordered: ContainerRow[],
    folderOf: (row: ContainerRow) => string | null = (row) => row.folderId,
  ) => {
    try {
      await call(
        api.PUT('/api/containerhost/folders/reorder-resources', {
          body: {
            resourceType: 'container',
            items: sortOrders(ordered).map(({ item, sortOrder }) => ({
              nodeId,
              resourceKey: item.resourceKey,
              sortOrder,
              folderId: folderOf(item),
            })),
          },
        }),
      );
    } catch (error) {
      notifyError(error);
    }
    await queryClient.invalidateQueries({ queryKey: nodeKey(nodeId) });
    await queryClient.invalidateQueries({ queryKey: FOLDERS_KEY });
  };
  const place = async (name: string, folder: Folder | null) => {
    await save(rows, (row) => (row.name === name ? (folder?.id ?? null) : row.folderId));
    notifySuccess(folder ? `Put ${name} in folder ${folder.name}.` : `Took ${name} out of its folder.`);
  };
  /** Folders keep their order in their own sortOrder, saved for each one whose place changed. */
  const moveFolder = async (from: number, to: number) => {
    try {
      for (const { item, sortOrder } of sortOrders(moveItem(folderList, from, to)))
        if (item.sortOrder !== sortOrder)
          await call(
            api.PUT('/api/containerhost/folders/{id}', {
              params: { path: { id: item.id } },
              body: { sortOrder },
            }),
          );
    } catch (error) {
      notifyError(error);
    }
    await queryClient.invalidateQueries({ queryKey: FOLDERS_KEY });
  };

  const folderChoices = [
    { value: '', label: 'No folder' },
    ...folderList.map((folder) => ({ value: folder.id, label: folder.name })),
  ];
  const columns: Column<ContainerRow>[] = [
    {
      header: 'Container',
      cell: (row) => (
        <Anchor
          component={Link}
          to={nodePath(nodeId, `/containers/${encodeURIComponent(row.name)}`)}
          style={mayManage ? { cursor: 'grab' } : undefined}
          {...(mayManage
            ? {
                ...orderDrag.source({ what: 'container', name: row.name }),
                ...orderDrag.target((dragged) => {
                  if (dragged.what !== 'container' || dragged.name === row.name) return;
                  const from = rows.findIndex((other) => other.name === dragged.name);
                  void save(moveItem(rows, from, rows.indexOf(row)));
                }),
              }
            : {})}
        >
          {row.name}
        </Anchor>
      ),
    },
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
  return (
    <Grid gap="md">
      <Grid.Col span={{ base: 12, md: 4 }}>
        {/* Beside the list and kept in view while it scrolls, so a container can be dragged onto a folder. */}
        <Box style={{ position: 'sticky', top: STICKY_TOP }}>
          <Section title="Folders">
            <QueryView query={folders}>
              {({ items, total }) => (
                <ContainerFolders
                  nodeId={nodeId}
                  folders={items}
                  total={total}
                  mayManage={mayManage}
                  onMoveFolder={(from, to) => void moveFolder(from, to)}
                  onPlaceContainer={(name, folder) => void place(name, folder)}
                />
              )}
            </QueryView>
          </Section>
        </Box>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Section title="Order of containers">
          <QueryView query={containers}>
            {({ items, total }) =>
              items.length === 0 ? (
                <Text c="dimmed">No containers to order on this node.</Text>
              ) : (
                <>
                  {mayManage && (
                    <Text size="sm" c="dimmed">
                      Drag a container onto another to put it at that place, or onto a folder to put it there.
                    </Text>
                  )}
                  <DataTable
                    label="Order of containers"
                    columns={columns}
                    rows={items}
                    rowKey={(row) => row.id}
                  />
                  {total > items.length && (
                    <Text size="sm" c="dimmed">
                      The first {items.length} of {total} containers are shown and ordered.
                    </Text>
                  )}
                  <Button
                    variant="default"
                    size="xs"
                    w="fit-content"
                    onClick={() => void containers.refetch()}
                  >
                    Reload order
                  </Button>
                </>
              )
            }
          </QueryView>
        </Section>
      </Grid.Col>
    </Grid>
  );
}
