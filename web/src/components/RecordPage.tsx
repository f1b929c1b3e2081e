import { Anchor, Button, Group, Stack } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ConfirmButton } from './ConfirmButton';
import { PageHeader } from './PageHeader';
import { QueryView } from './QueryView';

/**
 * The page of one record below its list (`/nodes/:id`): a link back to the list, then, once the
 * record loaded, its header (the page's h1) and its sections; a load error says why.
 */
export function RecordPage<Data>({
  back,
  query,
  header,
  children,
}: {
  /** The list: `{to: '/nodes', label: 'All nodes'}`. */
  back: { to: string; label: string };
  query: UseQueryResult<Data>;
  header: (data: Data) => { title: string; description?: ReactNode; action?: ReactNode };
  children: (data: Data) => ReactNode;
}) {
  return (
    <Stack>
      <Anchor component={Link} to={back.to} size="sm">
        ← {back.label}
      </Anchor>
      <QueryView query={query}>
        {(data) => (
          <>
            <PageHeader {...header(data)} />
            {children(data)}
          </>
        )}
      </QueryView>
    </Stack>
  );
}

/**
 * The usual actions in a record page's header: Edit, and removing the record behind a
 * confirmation that says what goes with it.
 */
export function EditAndRemove({
  onEdit,
  verb,
  title,
  message,
  onRemove,
}: {
  onEdit: () => void;
  /** The removal's button and confirming button: `Remove` or `Delete`, as the area says it. */
  verb: 'Remove' | 'Delete';
  /** The confirmation's question: `Remove cache?` */
  title: string;
  message: ReactNode;
  onRemove: () => Promise<unknown>;
}) {
  return (
    <Group gap="xs">
      <Button variant="default" onClick={onEdit}>
        Edit
      </Button>
      <ConfirmButton label={verb} title={title} message={message} confirmLabel={verb} onConfirm={onRemove} />
    </Group>
  );
}
