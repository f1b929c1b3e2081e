import {
  Alert,
  Box,
  Button,
  Group,
  Modal,
  Select,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { describeError } from '../../api/errors';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { dragChannel } from '../../components/drag-and-drop';
import { notifySuccess } from '../../components/notify';
import { QueryView } from '../../components/QueryView';
import { Section } from '../../components/Section';
import { MoveDialog, type MoveTarget } from './MoveDialog';
import {
  type FlatNode,
  flattenTree,
  folderCalls,
  LOGGING_KEY,
  type TreeKind,
  useFolderTree,
} from './queries';

/** Which folder's items the list shows: every one, the top level, or one folder. */
export type FolderChoice = 'all' | 'root' | string;

/** What a drag carries: a folder of this tree, or an item (schema/environment) to put in a folder. */
const moves = dragChannel<MoveTarget>('application/x-infragate-move');

/** What can be dragged onto a folder of the tree (its Move button does the same by keyboard). */
export function Draggable({ target, children }: { target: MoveTarget; children: ReactNode }) {
  return (
    <Box {...moves.source(target)} style={{ cursor: 'grab' }}>
      {children}
    </Box>
  );
}

/** Moves a folder under another, or an item into a folder, with this tree's routes. */
export function moveInTree(kind: TreeKind) {
  return (target: MoveTarget, to: string | null) =>
    target.what === 'folder'
      ? folderCalls[kind].move(target.id, to)
      : folderCalls[kind].moveItem(target.id, to);
}

function NewFolderDialog({ kind, onClose }: { kind: TreeKind; onClose: () => void }) {
  const queryClient = useQueryClient();
  const tree = useFolderTree(kind);
  const parents = [
    { value: 'root', label: 'Top level' },
    ...flattenTree(tree.data ?? []).map(({ node, path }) => ({ value: node.id, label: path })),
  ];
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { name: '', parentId: 'root' },
    submit: ({ name, parentId }) =>
      folderCalls[kind].create({ name, parentId: parentId === 'root' ? null : parentId }),
    onDone: async ({ data }) => {
      notifySuccess(`Created the folder ${data.name}.`);
      onClose();
      await queryClient.invalidateQueries({ queryKey: LOGGING_KEY });
    },
  });
  return (
    <Modal opened onClose={onClose} title="Create a folder">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} />
          <TextInput label="Name" data-autofocus {...form.getInputProps('name')} />
          <Select
            label="Parent folder"
            data={parents}
            allowDeselect={false}
            {...form.getInputProps('parentId')}
          />
          <FormActions submitLabel="Create folder" submitting={submitting} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * One of the two folder trees: choose a folder to list its items, drag a folder onto another (or
 * an item from the list onto a folder) to move it, or use its Move button.
 */
export function FolderTree({
  kind,
  selected,
  onSelect,
}: {
  kind: TreeKind;
  selected: FolderChoice;
  onSelect: (choice: FolderChoice) => void;
}) {
  const queryClient = useQueryClient();
  const tree = useFolderTree(kind);
  const [creating, setCreating] = useState(false);
  const [moving, setMoving] = useState<MoveTarget | undefined>();
  const [refusal, setRefusal] = useState<string | undefined>();
  const move = moveInTree(kind);

  const dropOn = (folderId: string | null) => async (target: MoveTarget) => {
    if (target.id === folderId || target.current === folderId) return;
    setRefusal(undefined);
    try {
      await move(target, folderId);
      notifySuccess(`Moved ${target.name}.`);
    } catch (error) {
      setRefusal(`${target.name} was not moved. ${describeError(error)}`);
    }
    await queryClient.invalidateQueries({ queryKey: LOGGING_KEY });
  };
  const entry = (choice: FolderChoice, label: string, depth: number, folderId: string | null) => (
    <UnstyledButton
      onClick={() => onSelect(choice)}
      {...moves.target(dropOn(folderId))}
      aria-pressed={selected === choice}
      pl={8 + depth * 16}
      py={4}
      style={{
        flex: 1,
        minWidth: 0,
        borderRadius: 4,
        background: selected === choice ? 'var(--mantine-primary-color-light)' : undefined,
      }}
    >
      <Text size="sm" truncate fw={selected === choice ? 600 : 400}>
        {label}
      </Text>
    </UnstyledButton>
  );
  const row = ({ node, depth }: FlatNode) => {
    const target: MoveTarget = { what: 'folder', id: node.id, name: node.name, current: node.parentId };
    return (
      <Group key={node.id} gap={4} wrap="nowrap" {...moves.source(target)}>
        {entry(node.id, node.name, depth, node.id)}
        <Button
          size="compact-xs"
          variant="subtle"
          aria-label={`Move ${node.name}`}
          onClick={() => setMoving(target)}
        >
          Move
        </Button>
      </Group>
    );
  };

  return (
    <Section
      title="Folders"
      action={
        <Button size="xs" variant="light" onClick={() => setCreating(true)}>
          New folder
        </Button>
      }
    >
      {refusal && (
        <Alert
          color="red"
          role="alert"
          title="Not moved"
          withCloseButton
          onClose={() => setRefusal(undefined)}
        >
          {refusal}
        </Alert>
      )}
      <QueryView query={tree}>
        {(nodes) => (
          <Box component="nav" aria-label={`${kind === 'schema' ? 'Schema' : 'Environment'} folders`}>
            <Stack gap={2}>
              {entry('all', 'All folders', 0, null)}
              {entry('root', 'Top level', 0, null)}
              {flattenTree(nodes).map(row)}
            </Stack>
          </Box>
        )}
      </QueryView>
      <Text size="xs" c="dimmed">
        Drag a folder onto another to move it there, or use Move.
      </Text>
      {creating && <NewFolderDialog kind={kind} onClose={() => setCreating(false)} />}
      {moving && <MoveDialog kind={kind} target={moving} move={move} onClose={() => setMoving(undefined)} />}
    </Section>
  );
}
