import { Badge, Button, Grid, Group, Stack, Switch, Text, UnstyledButton } from '@mantine/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { BarChart } from '../../components/BarChart';
import { EmptyNotice } from '../../components/EmptyNotice';
import { ErrorNotice } from '../../components/ErrorNotice';
import { formatDateTime } from '../../components/format';
import { PageLoader } from '../../components/PageLoader';
import { Section } from '../../components/Section';
import { useLiveTail } from './live-tail';
import { LOGGING_KEY } from './queries';
import { RecordList } from './RecordList';
import { RecordSearchBar } from './RecordSearchBar';
import { NO_FILTERS, type RecordFilters, type SearchQuery, searchQuery, tailUrl } from './record-filters';

const PAGE_SIZE = 50;

/** Counts per value of one facet; choosing a value searches for it. */
function Facet({
  environmentId,
  field,
  query,
  onChoose,
}: {
  environmentId: string;
  field: 'level' | 'service';
  query: SearchQuery;
  onChoose: (value: string) => void;
}) {
  const facet = useQuery({
    queryKey: [...LOGGING_KEY, 'facets', environmentId, field, query],
    queryFn: () =>
      call(
        api.GET('/api/logging/environments/{id}/facets', {
          params: { path: { id: environmentId }, query: { ...query, field } },
        }),
      ),
  });
  const values = facet.data?.data.values ?? [];
  return (
    <Section title={field === 'level' ? 'Levels' : 'Services'}>
      {values.length === 0 ? (
        <Text size="sm" c="dimmed">
          None in this range
        </Text>
      ) : (
        <Stack gap={2}>
          {values.map(({ value, count }) => (
            <Group key={String(value)} justify="space-between" wrap="nowrap">
              <UnstyledButton onClick={() => onChoose(String(value))} style={{ minWidth: 0 }}>
                <Text size="sm" truncate td="underline">
                  {String(value)}
                </Text>
              </UnstyledButton>
              <Badge variant="light" aria-label={`${count} records`}>
                {count}
              </Badge>
            </Group>
          ))}
        </Stack>
      )}
    </Section>
  );
}

/** Records per time bucket of the search, as bars. */
function Histogram({ environmentId, query }: { environmentId: string; query: SearchQuery }) {
  const histogram = useQuery({
    queryKey: [...LOGGING_KEY, 'histogram', environmentId, query],
    queryFn: () =>
      call(
        api.GET('/api/logging/environments/{id}/histogram', {
          params: { path: { id: environmentId }, query },
        }),
      ),
  });
  if (!histogram.data) return null;
  const { buckets, intervalSeconds } = histogram.data.data;
  const total = buckets.reduce((sum, bucket) => sum + bucket.count, 0);
  return (
    <BarChart
      bars={buckets.map((bucket) => ({ label: formatDateTime(bucket.start), value: bucket.count }))}
      summary={`${total} record${total === 1 ? '' : 's'} in this range, in buckets of ${intervalSeconds} seconds`}
    />
  );
}

/**
 * An environment's records: the search bar, a histogram, facet counts and the records (newest
 * first, more on request), with live tail adding new ones at the top while it is on.
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

  return (
    <Stack>
      <RecordSearchBar key={JSON.stringify(filters)} filters={filters} onSearch={search} />
      <Group justify="space-between">
        <Switch
          label={tailing ? 'Live tail on (switch off to pause)' : 'Live tail'}
          checked={tailing}
          onChange={(event) => setTailing(event.currentTarget.checked)}
        />
        {tailing && (
          <Text size="sm" c="dimmed" role="status">
            {tail.connected ? `Listening; ${tail.records.length} new` : 'Connecting…'}
          </Text>
        )}
      </Group>
      <Histogram environmentId={environmentId} query={query} />
      <Grid>
        <Grid.Col span={{ base: 12, md: 3 }}>
          <Stack>
            <Facet
              environmentId={environmentId}
              field="level"
              query={query}
              onChoose={(level) => search({ ...filters, levels: [level] })}
            />
            <Facet
              environmentId={environmentId}
              field="service"
              query={query}
              onChoose={(service) => search({ ...filters, service })}
            />
          </Stack>
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
