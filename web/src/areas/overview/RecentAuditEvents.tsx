import { Badge } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { type Column, DataTable } from '../../components/DataTable';
import { EmptyNotice } from '../../components/EmptyNotice';
import { formatDateTime } from '../../components/format';
import { QueryView } from '../../components/QueryView';
import { Section } from '../../components/Section';

type AuditEvent = Answer<'/api/audit/events', 'get'>['data'][number];

const columns: Column<AuditEvent>[] = [
  { header: 'When', cell: (event) => formatDateTime(event.occurredAt) },
  { header: 'Who', cell: (event) => event.actorEmail ?? 'system' },
  { header: 'Action', cell: (event) => event.action },
  {
    header: 'Outcome',
    cell: (event) =>
      event.outcome === 'success' ? (
        <Badge color="green" variant="light">
          Success
        </Badge>
      ) : (
        <Badge color="red" variant="light">
          Failure
        </Badge>
      ),
  },
];

/** The last changes and refusals the audit trail recorded. */
export default function RecentAuditEvents() {
  const events = useQuery({
    queryKey: ['overview', 'audit'],
    queryFn: () => call(api.GET('/api/audit/events', { params: { query: { limit: 10 } } })),
  });
  return (
    <Section title="Recent audit events">
      <QueryView query={events}>
        {({ data }) =>
          data.length === 0 ? (
            <EmptyNotice
              title="Nothing recorded yet"
              description="Changes and refusals appear here as they happen."
            />
          ) : (
            <DataTable
              label="Recent audit events"
              columns={columns}
              rows={data}
              rowKey={(event) => event.id}
            />
          )
        }
      </QueryView>
    </Section>
  );
}
