import { Badge, Code, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { type Column, DataTable } from '../../components/DataTable';
import { EmptyNotice } from '../../components/EmptyNotice';
import { FactList } from '../../components/FactList';
import { formatDateTime } from '../../components/format';
import { RecordPage } from '../../components/RecordPage';
import { RelativeTime } from '../../components/RelativeTime';
import { Section } from '../../components/Section';
import { DeliveryStatusBadge } from './DeliveryStatus';
import { DELIVERIES_KEY, namesById, useChannelChoices, useRuleChoices } from './queries';
import { RequeueButton } from './RequeueButton';

type DeliveryDetail = Answer<'/api/notifications/deliveries/{id}', 'get'>['data'];
type Attempt = DeliveryDetail['attemptLog'][number];

const OUTCOME_COLOURS: Record<Attempt['outcome'], string> = {
  pending: 'blue',
  succeeded: 'green',
  failed: 'red',
  interrupted: 'orange',
};

const OUTCOME_MEANINGS: Record<Attempt['outcome'], string> = {
  pending: 'being sent now',
  succeeded: 'the channel took it',
  failed: 'the channel refused it or could not be reached',
  interrupted: 'the gateway stopped during the send; it was sent again',
};

const attemptColumns: Column<Attempt>[] = [
  { header: 'Attempt', cell: (attempt) => `#${attempt.attempt}` },
  {
    header: 'Outcome',
    cell: (attempt) => (
      <div>
        <Badge color={OUTCOME_COLOURS[attempt.outcome]} variant="light">
          {attempt.outcome}
        </Badge>
        <Text size="xs" c="dimmed">
          {OUTCOME_MEANINGS[attempt.outcome]}
        </Text>
      </div>
    ),
  },
  { header: 'Started', cell: (attempt) => <RelativeTime value={attempt.startedAt} /> },
  { header: 'Finished', cell: (attempt) => <RelativeTime value={attempt.finishedAt} /> },
  { header: 'HTTP status', cell: (attempt) => attempt.httpStatus ?? '—' },
  {
    header: 'Error',
    cell: (attempt) => (
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {attempt.error ?? '—'}
      </Text>
    ),
  },
];

function Facts({ delivery }: { delivery: DeliveryDetail }) {
  const channelNames = namesById(useChannelChoices().data?.data);
  const ruleNames = namesById(useRuleChoices().data?.data);
  return (
    <FactList
      facts={[
        { label: 'Status', value: <DeliveryStatusBadge status={delivery.status} /> },
        { label: 'Channel', value: channelNames.get(delivery.channelId) ?? delivery.channelId },
        {
          label: 'Rule',
          value: delivery.ruleId ? (ruleNames.get(delivery.ruleId) ?? delivery.ruleId) : 'deleted since',
        },
        { label: 'Resource', value: `${delivery.resource.type} ${delivery.resource.name}` },
        { label: 'Attempts', value: `${delivery.attempts} of ${delivery.maxAttempts}` },
        { label: 'Created', value: <RelativeTime value={delivery.createdAt} /> },
        {
          label: delivery.status === 'delivered' ? 'Delivered' : 'Next attempt',
          value: formatDateTime(
            delivery.status === 'delivered' ? delivery.deliveredAt : delivery.nextAttemptAt,
          ),
        },
        { label: 'Last error', value: delivery.lastError ?? '—' },
      ]}
    />
  );
}

/** One delivery (`/notifications/deliveries/:id`): what it sends where, every attempt, and the payload. */
export function DeliveryPage({ canManage }: { canManage: boolean }) {
  const { id = '' } = useParams();
  const delivery = useQuery({
    queryKey: [...DELIVERIES_KEY, id],
    queryFn: () => call(api.GET('/api/notifications/deliveries/{id}', { params: { path: { id } } })),
  });
  return (
    <RecordPage
      back={{ to: '/notifications/deliveries', label: 'All deliveries' }}
      query={delivery}
      header={({ data }) => ({
        title: data.summary,
        description: data.event,
        action: canManage && <RequeueButton delivery={data} />,
      })}
    >
      {({ data }) => (
        <>
          <Section title="Delivery">
            <Facts delivery={data} />
          </Section>
          <Section title="Attempts">
            {data.attemptLog.length === 0 ? (
              <EmptyNotice
                title="No attempt yet"
                description="The delivery worker sends it shortly; each attempt is listed here with its outcome."
              />
            ) : (
              <DataTable
                label="Attempts"
                columns={attemptColumns}
                rows={data.attemptLog}
                rowKey={(attempt) => String(attempt.attempt)}
              />
            )}
          </Section>
          <Section title="Payload">
            <Text size="sm" c="dimmed">
              The event as a webhook receives it.
            </Text>
            <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {JSON.stringify(data.payload, null, 2)}
            </Code>
          </Section>
        </>
      )}
    </RecordPage>
  );
}
