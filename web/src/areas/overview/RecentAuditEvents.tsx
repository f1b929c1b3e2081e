import { Anchor, Badge } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { consolePages } from '../../../../src/core/console-pages';
import { api, call } from '../../api/client';
import { type Column, DataTable } from '../../components/DataTable';
import { EmptyNotice } from '../../components/EmptyNotice';
import { QueryView } from '../../components/QueryView';
import { RelativeTime } from '../../components/RelativeTime';
import { Section } from '../../components/Section';
import { AuditTargetLink } from '../audit/AuditTargetLink';
import type { AuditEvent } from '../audit/queries';

const columns: Column<AuditEvent>[] = [
  { header: 'When', cell: (event) => <RelativeTime value={event.occurredAt} /> },
  { header: 'Who', cell: (event) => event.actorEmail ?? 'system' },
  {
    header: 'Action',
    cell: (event) => (
      <Anchor component={Link} to={consolePages.auditEvents({ action: event.action })} size="sm">
        {event.action}
      </Anchor>
    ),
  },
  { header: 'Target', cell: (event) => <AuditTargetLink event={event} /> },
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
