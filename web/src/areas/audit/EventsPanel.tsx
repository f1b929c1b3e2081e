import { Badge, Code, Stack, Text } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { api, call } from '../../api/client';
import type { Column } from '../../components/DataTable';
import { RelativeTime } from '../../components/RelativeTime';
import { ServerList } from '../../components/ServerList';
import { AuditTargetLink } from './AuditTargetLink';
import { EventFilterBar } from './EventFilterBar';
import { type EventFilters, eventFiltersFrom, eventQuery, withEventFilters } from './event-filters';
import { type AuditEvent, EVENTS_KEY } from './queries';
import { VerifyChain } from './VerifyChain';

const COLUMNS: Column<AuditEvent>[] = [
  {
    header: 'When',
    cell: (event) => (
      <div>
        <Text size="sm">
          <RelativeTime value={event.occurredAt} />
        </Text>
        <Text size="xs" c="dimmed">
          #{event.seq}
        </Text>
      </div>
    ),
  },
  { header: 'Actor', cell: (event) => event.actorEmail ?? event.actorId ?? 'The gateway' },
  {
    header: 'Action',
    cell: (event) => (
      <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        <Text size="sm" ff="monospace">
          {event.action}
        </Text>
        {Object.keys(event.metadata ?? {}).length > 0 && (
          <details>
            <summary>
              <Text span size="xs">
                Details
              </Text>
            </summary>
            <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {JSON.stringify(event.metadata, null, 2)}
            </Code>
          </details>
        )}
      </div>
    ),
  },
  {
    header: 'Target',
    cell: (event) => <AuditTargetLink event={event} />,
  },
  {
    header: 'Outcome',
    cell: (event) => (
      <Badge color={event.outcome === 'success' ? 'green' : 'red'} variant="light">
        {event.outcome}
      </Badge>
    ),
  },
];

/** The audit events, newest first, filtered (the filters live in the address); and the chain's verification. */
export function EventsPanel() {
  const [params, setParams] = useSearchParams();
  const filters = eventFiltersFrom(params);
  const filter = (next: EventFilters) => setParams((current) => withEventFilters(current, next));
  const query = eventQuery(filters);
  return (
    <Stack>
      <VerifyChain />
      {/* A new address (a link followed while here) starts the form over from its filters. */}
      <EventFilterBar key={JSON.stringify(filters)} filters={filters} onFilter={filter} />
      <ServerList
        label="Audit events"
        queryKey={[...EVENTS_KEY, query]}
        fetchPage={(page) => call(api.GET('/api/audit/events', { params: { query: { ...page, ...query } } }))}
        columns={COLUMNS}
        rowKey={(event) => event.id}
        empty={{
          title: 'No events match',
          description:
            'Every change made through the gateway is recorded here; widen the filters to see more.',
        }}
      />
    </Stack>
  );
}
