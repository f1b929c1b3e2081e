import { Modal, Select, Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { flattenTree, LOGGING_KEY, type TreeKind, useFolderTree } from './queries';

const TOP_LEVEL = 'root';

export interface MoveTarget {
  /** `folder`: a folder of the tree moves under another; `item`: a schema or environment changes folder. */
  what: 'folder' | 'item';
  id: string;
  name: string;
  /** Where it is now (null: the top level). */
  current: string | null;
}

/**
 * The keyboard way to do what dragging does: choose where a folder, schema or environment goes.
 * A refusal (a folder moved under itself, a name taken there) shows the gateway's message.
 */
export function MoveDialog({
  kind,
  target,
  move,
  onClose,
}: {
  kind: TreeKind;
  target: MoveTarget;
  move: (target: MoveTarget, to: string | null) => Promise<unknown>;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const tree = useFolderTree(kind);
  const choices = [
    { value: TOP_LEVEL, label: 'Top level' },
    ...flattenTree(tree.data ?? []).map(({ node, path }) => ({ value: node.id, label: path })),
  ];
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { destination: target.current ?? TOP_LEVEL },
    submit: ({ destination }) => move(target, destination === TOP_LEVEL ? null : destination),
    onDone: async () => {
      notifySuccess(`Moved ${target.name}.`);
      onClose();
      await queryClient.invalidateQueries({ queryKey: LOGGING_KEY });
    },
  });
  return (
    <Modal opened onClose={onClose} title={`Move ${target.name}`}>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} title="Not moved" />
          <Select
            label={target.what === 'folder' ? 'New parent folder' : 'Folder'}
            data={choices}
            allowDeselect={false}
            searchable
            data-autofocus
            {...form.getInputProps('destination')}
          />
          <FormActions submitLabel="Move" submitting={submitting} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
