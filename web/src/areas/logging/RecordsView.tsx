import { Button, Grid, Group, Stack, Switch, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { EmptyNotice } from '../../components/EmptyNotice';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageLoader } from '../../components/PageLoader';
import { useLiveTail } from './live-tail';
import { LOGGING_KEY } from './queries';
import { RecordFacets, RecordHistogram } from './RecordFacets';
import { RecordList } from './RecordList';
import { RecordSearchBar } from './RecordSearchBar';
import { NO_FILTERS, parseFieldFilter, type RecordFilters, searchQuery, tailUrl } from './record-filters';

const PAGE_SIZE = 50;

/** The filters with `name=value` as a field filter, in place of any earlier one on the same field. */
function withFieldFilter(filters: RecordFilters, name: string, value: string): RecordFilters {
  const others = filters.fields.filter((text) => parseFieldFilter(text)?.[0] !== name);
  return { ...filters, fields: [...others, `${name}=${value}`] };
}

/**
 * An environment's records: the search bar, a histogram, facet counts and the records (newest
 * first, more on request), with live tail adding new ones at the top while it is on; paused, it
 * holds what arrives and says how many.
 */
export function RecordsView({ environmentId }: { environmentId: string }) {
  const [filters, setFilters] = useState<RecordFilters>(NO_FILTERS);
  // The range is fixed when a search starts, so the pages of one search agree on it.
  const [searchedAt, setSearchedAt] = useState(() => Date.now());
  const [tailing, setTailing] = useState(false);
  const query = searchQuery(filters, searchedAt);
  const tail = useLiveTail(tailing ? tailUrl(environmentId, filters) : undefined);
  const records = useInfiniteQuery({
    queryKey: [...LOGGING_KEY, 'records', environmentId, query],
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
  const search = (next: RecordFilters) => {
    setFilters(next);
    setSearchedAt(Date.now());
    tail.clear();
  };
  const resume = () => {
    // The page held only the newest of what arrived: a new search from now shows them all.
    if (tail.overflowed) search(filters);
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
  else if (records.data) list = <RecordList label="Log records" records={shown} />;

  let tailStatus = 'Connecting…';
  if (tail.paused) tailStatus = `Paused; ${tail.heldCount} new record${tail.heldCount === 1 ? '' : 's'}`;
  else if (tail.connected) tailStatus = `Listening; ${tail.records.length} new`;

  return (
    <Stack>
      <RecordSearchBar key={JSON.stringify(filters)} filters={filters} onSearch={search} />
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
      <RecordHistogram environmentId={environmentId} query={query} />
      <Grid>
        <Grid.Col span={{ base: 12, md: 3 }}>
          <RecordFacets
            environmentId={environmentId}
            query={query}
            onLevel={(level) => search({ ...filters, levels: [level] })}
            onService={(service) => search({ ...filters, service })}
            onField={(name, value) => search(withFieldFilter(filters, name, value))}
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
