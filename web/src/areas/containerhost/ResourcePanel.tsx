import { Button, Group, Modal, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { FormEventHandler, ReactNode } from 'react';
import { FormActions, FormBanner } from '../../components/api-form';
import { ConfirmButton } from '../../components/ConfirmButton';
import type { Column } from '../../components/DataTable';
import { ServerList } from '../../components/ServerList';
import { nodeKey, useMayManageContainers } from './queries';

/** The Actions column of a node's resources: Delete, behind a confirmation that says what happens. */
export function deleteColumn<Row>({
  what,
  nameOf,
  message,
  remove,
  deletable = () => true,
}: {
  /** `network`, `volume`, `image`. */
  what: string;
  nameOf: (row: Row) => string;
  message: string;
  remove: (row: Row) => Promise<unknown>;
  deletable?: (row: Row) => boolean;
}): Column<Row> {
  return {
    header: 'Actions',
    cell: (row) =>
      deletable(row) ? (
        <ConfirmButton
          size="xs"
          label="Delete"
          aria-label={`Delete ${what} ${nameOf(row)}`}
          title={`Delete ${what} ${nameOf(row)}?`}
          message={message}
          confirmLabel={`Delete ${what}`}
          onConfirm={() => remove(row)}
        />
      ) : null,
  };
}

/** The dialog of a create form: title, banner, the fields, Cancel and the submit button. */
export function CreateDialog({
  title,
  submitLabel,
  opened,
  onClose,
  onSubmit,
  banner,
  submitting,
  children,
}: {
  title: string;
  submitLabel: string;
  opened: boolean;
  onClose: () => void;
  onSubmit: FormEventHandler<HTMLFormElement>;
  banner: string | undefined;
  submitting: boolean;
  children: ReactNode;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} />
          {children}
          <FormActions submitLabel={submitLabel} submitting={submitting} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * One kind of a node's resources (networks, volumes, images): its create button and dialog for
 * those who may manage, and its server-paginated, searchable list.
 */
export function ResourcePanel<Row>({
  nodeId,
  label,
  createLabel,
  createDialog,
  fetchPage,
  columns,
  rowKey,
  empty,
  actions,
}: {
  nodeId: string;
  /** The list's name and search box (`Networks` → "Search networks"). */
  label: string;
  createLabel: string;
  createDialog: (props: { opened: boolean; onClose: () => void }) => ReactNode;
  fetchPage: Parameters<typeof ServerList<Row>>[0]['fetchPage'];
  /** The columns; the delete column is added for those who may manage. */
  columns: { read: Column<Row>[]; manage: Column<Row> };
  rowKey: (row: Row) => string;
  empty: { title: string; description: string };
  /** Further buttons beside the create button (e.g. Prune). */
  actions?: ReactNode;
}) {
  const mayManage = useMayManageContainers(nodeId);
  const [creating, create] = useDisclosure(false);
  const createButton = mayManage ? <Button onClick={create.open}>{createLabel}</Button> : undefined;
  return (
    <Stack>
      {mayManage && (
        <Group gap="xs">
          {createButton}
          {actions}
        </Group>
      )}
      <ServerList
        label={label}
        queryKey={[...nodeKey(nodeId), label.toLowerCase()]}
        fetchPage={fetchPage}
        columns={mayManage ? [...columns.read, columns.manage] : columns.read}
        rowKey={rowKey}
        search={`Search ${label.toLowerCase()}`}
        empty={{ ...empty, action: createButton }}
      />
      {mayManage && createDialog({ opened: creating, onClose: create.close })}
    </Stack>
  );
}
