import { Badge, Button, Group, Select, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Query } from '../../api/types';
import type { Column } from '../../components/DataTable';
import { formatDateTime } from '../../components/format';
import { notifyError, notifySuccess } from '../../components/notify';
import { ServerList } from '../../components/ServerList';
import { useAddressFilters } from '../../components/use-address-filters';
import {
  DELIVERIES_KEY,
  type Delivery,
  NOTIFICATIONS_KEY,
  namesById,
  useChannelChoices,
  useRuleChoices,
} from './queries';

type Filters = Pick<Query<'/api/notifications/deliveries', 'get'>, 'status' | 'channelId' | 'ruleId'>;
type Status = NonNullable<Filters['status']>;

const STATUSES: { value: Status; color: string }[] = [
  { value: 'queued', color: 'blue' },
  { value: 'delivering', color: 'blue' },
  { value: 'retrying', color: 'orange' },
  { value: 'delivered', color: 'green' },
  { value: 'failed', color: 'red' },
];
const FILTERS = ['status', 'channelId', 'ruleId'] as const;

/** Every notification sent or to be sent, newest first, filtered; a failed one can be sent again. */
export function DeliveriesPanel({ canManage }: { canManage: boolean }) {
  const queryClient = useQueryClient();
  const channels = useChannelChoices().data?.data ?? [];
  const rules = useRuleChoices().data?.data ?? [];
  const channelNames = namesById(channels);
  const { filters, setFilter } = useAddressFilters<Filters>(FILTERS);
  const requeue = async (delivery: Delivery) => {
    try {
      await call(
        api.POST('/api/notifications/deliveries/{id}/requeue', { params: { path: { id: delivery.id } } }),
      );
      notifySuccess(`Queued “${delivery.summary}” again.`);
    } catch (error) {
      notifyError(error);
    }
    await queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
  };
  const columns: Column<Delivery>[] = [
    { header: 'Created', cell: (delivery) => formatDateTime(delivery.createdAt) },
    {
      header: 'Notification',
      cell: (delivery) => (
        <div>
          <Text size="sm" fw={500}>
            {delivery.summary}
          </Text>
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
          <Badge
            color={STATUSES.find((status) => status.value === delivery.status)?.color ?? 'gray'}
            variant="light"
          >
            {delivery.status}
          </Badge>
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
    columns.push({
      header: 'Actions',
      cell: (delivery) =>
        delivery.status === 'failed' && (
          <Button
            size="xs"
            variant="default"
            aria-label={`Requeue ${delivery.summary}`}
            onClick={() => void requeue(delivery)}
          >
            Requeue
          </Button>
        ),
    });
  return (
    <Stack>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label="Status"
          placeholder="Any status"
          data={STATUSES.map((status) => status.value)}
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
