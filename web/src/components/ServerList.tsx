import { Center, Group, Loader, Pagination, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Answer } from '../api/types';
import { type Column, DataTable } from './DataTable';
import { EmptyNotice } from './EmptyNotice';
import { ErrorNotice } from './ErrorNotice';

/** `{page, limit, total, totalPages}`, the same on every list of the API. */
type PageInfo = Answer<'/api/admin/users', 'get'>['pagination'];

export interface ListQuery {
  page: number;
  limit: number;
  /** The search box's text; only lists whose API has `?q=` show the box. */
  q?: string;
}

interface ServerListProps<Row> {
  /** The table's accessible name, e.g. `Users`. */
  label: string;
  /** The list's place in the query cache, e.g. `['admin', 'users']`; changes invalidate it. */
  queryKey: readonly unknown[];
  /** One page from the API: `(query) => call(api.GET('/api/…', {params: {query}}))`. */
  fetchPage: (query: ListQuery) => Promise<{ data: Row[]; pagination: PageInfo }>;
  columns: readonly Column<Row>[];
  rowKey: (row: Row) => string;
  /** The search box's label, when the API filters this list with `?q=`. */
  search?: string;
  /** What an empty list says, and the action that fills it. */
  empty: { title: string; description: ReactNode; action?: ReactNode };
  pageSize?: number;
}

/**
 * A list paginated by the gateway (`?page`/`?limit`, and `?q=` behind the search box). The page and
 * the search live in the address (`?page=2&q=ops`), so reloading or sharing a link keeps them.
 */
export function ServerList<Row>({
  label,
  queryKey,
  fetchPage,
  columns,
  rowKey,
  search,
  empty,
  pageSize = 20,
}: ServerListProps<Row>) {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const q = params.get('q') ?? '';
  const [typed, setTyped] = useState(q);
  const applySearch = useDebouncedCallback((text: string) => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (text) next.set('q', text);
        else next.delete('q');
        next.delete('page');
        return next;
      },
      { replace: true },
    );
  }, 300);
  const goToPage = (target: number) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set('page', String(target));
      return next;
    });

  const query: ListQuery = { page, limit: pageSize, ...(q ? { q } : {}) };
  const list = useQuery({
    queryKey: [...queryKey, query],
    queryFn: () => fetchPage(query),
    placeholderData: keepPreviousData,
  });

  let body: ReactNode;
  if (list.error) body = <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />;
  else if (!list.data)
    body = (
      <Center py="xl">
        <Loader role="status" aria-label={`Loading ${label.toLowerCase()}`} />
      </Center>
    );
  else if (list.data.data.length === 0 && q)
    body = (
      <Text c="dimmed" py="md">
        Nothing matches “{q}”.
      </Text>
    );
  else if (list.data.data.length === 0) body = <EmptyNotice {...empty} />;
  else body = <DataTable label={label} columns={columns} rows={list.data.data} rowKey={rowKey} />;

  const totalPages = list.data?.pagination.totalPages ?? 0;
  return (
    <Stack gap="sm">
      {search && (
        <TextInput
          type="search"
          label={search}
          value={typed}
          onChange={(event) => {
            setTyped(event.currentTarget.value);
            applySearch(event.currentTarget.value);
          }}
          maw={360}
        />
      )}
      {body}
      {totalPages > 1 && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {list.data?.pagination.total} in all
          </Text>
          <nav aria-label={`Pages of ${label.toLowerCase()}`}>
            <Pagination
              total={totalPages}
              value={Math.min(page, totalPages)}
              onChange={goToPage}
              getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
              getControlProps={(control) => ({ 'aria-label': `${control} page` })}
            />
          </nav>
        </Group>
      )}
    </Stack>
  );
}
