import { Button, Group } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ConfirmButton } from '../../components/ConfirmButton';
import { notifySuccess } from '../../components/notify';
import { LOGGING_KEY } from './queries';

/**
 * The row actions of a schema or environment: `children` (e.g. Edit), Move (to another folder) and
 * Delete, confirmed with what deleting it does.
 */
export function ItemActions({
  name,
  onMove,
  consequence,
  remove,
  children,
}: {
  name: string;
  onMove: () => void;
  /** What deleting it does, in words. */
  consequence: string;
  /** The DELETE call. */
  remove: () => Promise<unknown>;
  children?: ReactNode;
}) {
  const queryClient = useQueryClient();
  const confirmDelete = async () => {
    await remove();
    notifySuccess(`Deleted ${name}.`);
    await queryClient.invalidateQueries({ queryKey: LOGGING_KEY });
  };
  return (
    <Group gap={6}>
      {children}
      <Button size="xs" variant="default" aria-label={`Move ${name}`} onClick={onMove}>
        Move
      </Button>
      <ConfirmButton
        size="xs"
        label="Delete"
        aria-label={`Delete ${name}`}
        title={`Delete ${name}?`}
        message={consequence}
        confirmLabel="Delete"
        onConfirm={confirmDelete}
      />
    </Group>
  );
}
