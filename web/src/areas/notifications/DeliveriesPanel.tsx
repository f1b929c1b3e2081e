import { Anchor, Group, Select, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { api, call } from '../../api/client';
import type { Query } from '../../api/types';
import type { Column } from '../../components/DataTable';
import { formatDateTime } from '../../components/format';
import { RelativeTime } from '../../components/RelativeTime';
import { ServerList } from '../../components/ServerList';
import { useAddressFilters } from '../../components/use-address-filters';
import { DELIVERY_STATUSES, DeliveryStatusBadge } from './DeliveryStatus';
import {
  DELIVERIES_KEY,
  type Delivery,
  deliveryPath,
  namesById,
  useChannelChoices,
  useRuleChoices,
} from './queries';
import { RequeueButton } from './RequeueButton';

type Filters = Pick<Query<'/api/notifications/deliveries', 'get'>, 'status' | 'channelId' | 'ruleId'>;

const FILTERS = ['status', 'channelId', 'ruleId'] as const;

/**
 * Every notification sent or to be sent, newest first, filtered; each links to its page with the
 * attempts; a failed one can be sent again.
 */
export function DeliveriesPanel({ canManage }: { canManage: boolean }) {
  const channels = useChannelChoices().data?.data ?? [];
  const rules = useRuleChoices().data?.data ?? [];
  const channelNames = namesById(channels);
  const { filters, setFilter } = useAddressFilters<Filters>(FILTERS);
  const columns: Column<Delivery>[] = [
    { header: 'Created', cell: (delivery) => <RelativeTime value={delivery.createdAt} /> },
    {
      header: 'Notification',
      cell: (delivery) => (
        <div>
          <Anchor component={Link} to={deliveryPath(delivery.id)} size="sm" fw={500}>
            {delivery.summary}
          </Anchor>
          <Text size="sm" c="dimmed" ff="monospace">
            {delivery.event}
          </Text>
        </div>
      ),
    },
    { header: 'Channel', cell: (delivery) => channelNames.get(delivery.channelId) ?? delivery.channelId },
    {
      header: 'Status',
      cell: (delivery) => (
        <Stack gap={2}>
          <DeliveryStatusBadge status={delivery.status} />
          <Text size="sm" c="dimmed">
            {delivery.attempts} of {delivery.maxAttempts} attempts
            {delivery.nextAttemptAt && delivery.status === 'retrying'
              ? `, next ${formatDateTime(delivery.nextAttemptAt)}`
              : ''}
          </Text>
          {delivery.lastError && (
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {delivery.lastError}
            </Text>
          )}
        </Stack>
      ),
    },
  ];
  if (canManage)
    columns.push({ header: 'Actions', cell: (delivery) => <RequeueButton delivery={delivery} /> });
  return (
    <Stack>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label="Status"
          placeholder="Any status"
          data={DELIVERY_STATUSES.map((status) => status.value)}
          value={filters.status ?? null}
          onChange={(value) => setFilter('status', value)}
          clearable
          w={180}
        />
        <Select
          label="Channel"
          placeholder="Any channel"
          data={channels.map((channel) => ({ value: channel.id, label: channel.name }))}
          value={filters.channelId ?? null}
          onChange={(value) => setFilter('channelId', value)}
          clearable
          searchable
          w={220}
        />
        <Select
          label="Rule"
          placeholder="Any rule"
          data={rules.map((rule) => ({ value: rule.id, label: rule.name }))}
          value={filters.ruleId ?? null}
          onChange={(value) => setFilter('ruleId', value)}
          clearable
          searchable
          w={220}
        />
      </Group>
      <ServerList
        label="Deliveries"
        queryKey={[...DELIVERIES_KEY, filters]}
        fetchPage={(query) =>
          call(api.GET('/api/notifications/deliveries', { params: { query: { ...query, ...filters } } }))
        }
        columns={columns}
        rowKey={(delivery) => delivery.id}
        empty={{
          title: Object.keys(filters).length > 0 ? 'No delivery matches' : 'Nothing sent yet',
          description:
            Object.keys(filters).length > 0
              ? 'Clear a filter to see more.'
              : 'When a rule’s event happens, each of its channels gets a delivery here.',
        }}
      />
    </Stack>
  );
}
