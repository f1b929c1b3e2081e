import { ActionIcon, Box, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { FormActions, FormBanner, InlineForm, useApiForm } from '../../components/api-form';
import { ConfirmButton } from '../../components/ConfirmButton';
import { dragChannel } from '../../components/drag-and-drop';
import { notifySuccess } from '../../components/notify';
import { CONTAINERHOST_KEY } from './queries';

export type Folder = Answer<'/api/containerhost/folders', 'get'>['data'][number];

/** The folders of containers (shared by every node), in the order the lists show them. */
export const FOLDERS_KEY = [...CONTAINERHOST_KEY, 'folders', 'container'];

/** What a drag on the Order and folders tab carries: a container to place, or a folder to reorder. */
export type OrderDrag = { what: 'container'; name: string } | { what: 'folder'; id: string; name: string };
export const orderDrag = dragChannel<OrderDrag>('application/x-infragate-container-order');

const listStyle = { listStyle: 'none', margin: 0, padding: 0 };

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

function RenameFolderDialog({ folder, onClose }: { folder: Folder; onClose: () => void }) {
  const queryClient = useQueryClient();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { name: folder.name },
    reasonFields: { FOLDER_NAME_TAKEN: 'name' },
    submit: ({ name }) =>
      call(
        api.PUT('/api/containerhost/folders/{id}', { params: { path: { id: folder.id } }, body: { name } }),
      ),
    onDone: async ({ data }) => {
      notifySuccess(`Renamed folder ${folder.name} to ${data.name}.`);
      onClose();
      await queryClient.invalidateQueries({ queryKey: CONTAINERHOST_KEY });
    },
  });
  return (
    <Modal opened onClose={onClose} title={`Rename folder ${folder.name}`}>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} />
          <TextInput label="Name" data-autofocus {...form.getInputProps('name')} />
          <FormActions submitLabel="Rename" submitting={submitting} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * The folders of containers in their order: drag a folder onto another to put it at that place (or
 * use its arrows), drag a container from the list below onto a folder to put it there (or onto No
 * folder to take it out); rename and delete a folder with its buttons.
 */
export function ContainerFolders({
  nodeId,
  folders,
  total,
  mayManage,
  onMoveFolder,
  onPlaceContainer,
}: {
  nodeId: string;
  folders: Folder[];
  /** How many folders there are: more than shown when the list was cut. */
  total: number;
  mayManage: boolean;
  /** Puts the folder at `from` to the place `to` and saves the order. */
  onMoveFolder: (from: number, to: number) => void;
  /** Puts a container in a folder (null: none). */
  onPlaceContainer: (name: string, folder: Folder | null) => void;
}) {
  const queryClient = useQueryClient();
  const [renaming, setRenaming] = useState<Folder | undefined>();
  const remove = async (folder: Folder) => {
    await call(api.DELETE('/api/containerhost/folders/{id}', { params: { path: { id: folder.id } } }));
    notifySuccess(`Deleted folder ${folder.name}.`);
    await queryClient.invalidateQueries({ queryKey: CONTAINERHOST_KEY });
  };
  const dropOn = (folder: Folder | null, at: number) =>
    orderDrag.target((dragged) => {
      if (dragged.what === 'container') onPlaceContainer(dragged.name, folder);
      else if (folder && dragged.id !== folder.id)
        onMoveFolder(
          folders.findIndex((other) => other.id === dragged.id),
          at,
        );
    });
  const here = (folder: Folder) => folder.resources.filter((resource) => resource.nodeId === nodeId).length;
  return (
    <Stack gap="xs">
      {mayManage && <CreateFolderForm />}
      <Box component="ul" aria-label="Container folders" style={listStyle}>
        <Group component="li" py={6} px="xs" {...(mayManage ? dropOn(null, -1) : {})}>
          <Text size="sm" c="dimmed">
            No folder{mayManage && ' — drop a container here to take it out of its folder'}
          </Text>
        </Group>
        {folders.map((folder, at) => (
          <Group
            key={folder.id}
            component="li"
            gap="xs"
            py={6}
            px="xs"
            wrap="wrap"
            style={{
              cursor: mayManage ? 'grab' : undefined,
              borderTop: '1px solid var(--mantine-color-default-border)',
            }}
            {...(mayManage
              ? {
                  ...orderDrag.source({ what: 'folder', id: folder.id, name: folder.name }),
                  ...dropOn(folder, at),
                }
              : {})}
          >
            <Text size="sm" fw={500} style={{ flex: 1, minWidth: '8rem' }}>
              {folder.name}
              <Text component="span" size="xs" c="dimmed">
                {' '}
                · {here(folder)} {here(folder) === 1 ? 'container' : 'containers'} here
              </Text>
            </Text>
            {mayManage && (
              <Group gap={4} wrap="nowrap">
                <ActionIcon
                  variant="default"
                  aria-label={`Move folder ${folder.name} up`}
                  disabled={at === 0}
                  onClick={() => onMoveFolder(at, at - 1)}
                >
                  ↑
                </ActionIcon>
                <ActionIcon
                  variant="default"
                  aria-label={`Move folder ${folder.name} down`}
                  disabled={at === folders.length - 1}
                  onClick={() => onMoveFolder(at, at + 1)}
                >
                  ↓
                </ActionIcon>
                <Button
                  size="xs"
                  variant="default"
                  aria-label={`Rename folder ${folder.name}`}
                  onClick={() => setRenaming(folder)}
                >
                  Rename
                </Button>
                <ConfirmButton
                  size="xs"
                  label="Delete"
                  aria-label={`Delete folder ${folder.name}`}
                  title={`Delete folder ${folder.name}?`}
                  message="The folder goes, on every node; its containers stay where they are in the order, without a folder."
                  confirmLabel="Delete folder"
                  onConfirm={() => remove(folder)}
                />
              </Group>
            )}
          </Group>
        ))}
      </Box>
      {folders.length === 0 && (
        <Text size="sm" c="dimmed">
          No folders yet{mayManage ? ': create one above, then drag containers onto it.' : '.'}
        </Text>
      )}
      {total > folders.length && (
        <Text size="sm" c="dimmed">
          The first {folders.length} of {total} folders are shown.
        </Text>
      )}
      {renaming && <RenameFolderDialog folder={renaming} onClose={() => setRenaming(undefined)} />}
    </Stack>
  );
}
