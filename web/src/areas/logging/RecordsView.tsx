import { Button, Grid, Group, Stack, Switch, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { EmptyNotice } from '../../components/EmptyNotice';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageLoader } from '../../components/PageLoader';
import { useLiveTail } from './live-tail';
import { LOGGING_KEY } from './queries';
import { RecordFacets } from './RecordFacets';
import { RecordHistogram } from './RecordHistogram';
import { RecordList } from './RecordList';
import { RecordSearchBar } from './RecordSearchBar';
import { searchQuery, tailUrl, withFieldValue } from './record-filters';
import { useRecordSearch } from './use-record-search';

const PAGE_SIZE = 50;

/**
 * An environment's records: the search bar (its search in the address), a histogram, facet counts
 * and the records (newest first, more on request), with live tail adding new ones at the top while
 * it is on; paused, it holds what arrives and says how many.
 */
export function RecordsView({ environmentId }: { environmentId: string }) {
  const [tailing, setTailing] = useState(false);
  const search = useRecordSearch(() => tail.clear());
  const filters = search.applied;
  const query = searchQuery(filters, search.startedAt);
  const tail = useLiveTail(tailing ? tailUrl(environmentId, filters) : undefined);
  const records = useInfiniteQuery({
    queryKey: [...LOGGING_KEY, 'records', environmentId, query, search.run],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/api/logging/environments/{id}/records', {
          params: {
            path: { id: environmentId },
            query: { ...query, limit: PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) },
          },
        }),
      ),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const resume = () => {
    // The page held only the newest of what arrived: a new search from now shows them all.
    if (tail.overflowed) search.apply(filters);
    tail.resume();
  };
  const found = records.data?.pages.flatMap((page) => page.data) ?? [];
  const seen = new Set(found.map((record) => record.id));
  const shown = [...tail.records.filter((record) => !seen.has(record.id)), ...found];

  let list = <PageLoader />;
  if (records.error) list = <ErrorNotice error={records.error} onRetry={() => void records.refetch()} />;
  else if (records.data && shown.length === 0)
    list = (
      <EmptyNotice
        title="No records"
        description="Nothing matches in this range. Widen the range, or send records with an ingest token (Ingest tokens tab)."
      />
    );
  else if (records.data)
    list = <RecordList label="Log records" records={shown} filters={filters} onApply={search.apply} />;

  let tailStatus = 'Connecting…';
  if (tail.paused) tailStatus = `Paused; ${tail.heldCount} new record${tail.heldCount === 1 ? '' : 's'}`;
  else if (tail.connected) tailStatus = `Listening; ${tail.records.length} new`;

  return (
    <Stack>
      <RecordSearchBar
        filters={search.draft}
        onEdit={search.edit}
        onSearch={(next) => search.apply(next)}
        pending={search.pending}
        problem={search.problem}
      />
      <Group justify="space-between">
        <Group gap="sm">
          <Switch
            label="Live tail"
            checked={tailing}
            onChange={(event) => setTailing(event.currentTarget.checked)}
          />
          {tailing && (
            <Button size="xs" variant="default" onClick={tail.paused ? resume : tail.pause}>
              {tail.paused ? 'Resume' : 'Pause'}
            </Button>
          )}
        </Group>
        {tailing && (
          <Text size="sm" c="dimmed" role="status">
            {tailStatus}
          </Text>
        )}
      </Group>
      <RecordHistogram
        environmentId={environmentId}
        query={query}
        onRange={(range) => search.apply({ ...filters, range: 'custom', ...range })}
      />
      <Grid>
        <Grid.Col span={{ base: 12, md: 3 }}>
          <RecordFacets
            environmentId={environmentId}
            query={query}
            onLevel={(level) => search.apply({ ...filters, levels: [level] })}
            onService={(service) => search.apply({ ...filters, service })}
            onField={(name, value) => search.apply(withFieldValue(filters, name, value))}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>
          <Stack>
            {list}
            {records.hasNextPage && (
              <Button
                variant="default"
                loading={records.isFetchingNextPage}
                onClick={() => void records.fetchNextPage()}
              >
                Show older records
              </Button>
            )}
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
