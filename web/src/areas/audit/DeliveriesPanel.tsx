import { Badge, Button, Group, Select, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { SIEM_DELIVERY_FILTERS, type SiemDeliveryFilter } from '../../../../src/core/console-pages';
import { api, call } from '../../api/client';
import type { Query } from '../../api/types';
import type { Column } from '../../components/DataTable';
import { notifyError, notifySuccess } from '../../components/notify';
import { RelativeTime } from '../../components/RelativeTime';
import { ServerList } from '../../components/ServerList';
import { useAddressFilters } from '../../components/use-address-filters';
import { AUDIT_KEY, DELIVERIES_KEY, DELIVERY_STATUSES, DESTINATIONS_KEY, type Delivery } from './queries';

const STATUS_COLOURS: Record<string, string> = {
  queued: 'blue',
  delivering: 'blue',
  delivered: 'green',
  retrying: 'yellow',
  failed: 'red',
  paused: 'gray',
  discarded: 'gray',
};

type Filters = Pick<Query<'/api/audit/siem/deliveries', 'get'>, SiemDeliveryFilter>;

/**
 * The export's deliveries, newest first, filtered by status and destination (in the address, where
 * a failed-delivery notification links to); a failed one can be requeued.
 */
export function DeliveriesPanel() {
  const queryClient = useQueryClient();
  const { filters, setFilter } = useAddressFilters<Filters>(SIEM_DELIVERY_FILTERS);
  const destinations = useQuery({
    queryKey: [...DESTINATIONS_KEY, 'names'],
    queryFn: () => call(api.GET('/api/audit/siem/destinations', { params: { query: { limit: 100 } } })),
  });
  const destinationName = (id: string) => destinations.data?.data.find((item) => item.id === id)?.name ?? id;
  const requeue = async (delivery: Delivery) => {
    try {
      await call(
        api.POST('/api/audit/siem/deliveries/{id}/requeue', {
          params: { path: { id: delivery.id } },
        }),
      );
      notifySuccess(`Requeued the delivery of events ${delivery.firstEventSeq}–${delivery.lastEventSeq}.`);
      await queryClient.invalidateQueries({ queryKey: AUDIT_KEY });
    } catch (error) {
      notifyError(error);
    }
  };
  const columns: Column<Delivery>[] = [
    { header: 'Created', cell: (delivery) => <RelativeTime value={delivery.createdAt} /> },
    { header: 'Destination', cell: (delivery) => destinationName(delivery.destinationId) },
    {
      header: 'Status',
      cell: (delivery) => (
        <Badge color={STATUS_COLOURS[delivery.status] ?? 'gray'} variant="light">
          {delivery.status}
        </Badge>
      ),
    },
    {
      header: 'Events',
      cell: (delivery) => `${delivery.eventCount} (#${delivery.firstEventSeq}–#${delivery.lastEventSeq})`,
    },
    {
      header: 'Attempts',
      cell: (delivery) => (
        <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
          <Text size="sm">
            {delivery.attempts} of {delivery.maxAttempts}
          </Text>
          {delivery.lastError && (
            <Text size="xs" c="dimmed">
              {delivery.lastError}
            </Text>
          )}
        </div>
      ),
    },
    {
      header: 'Actions',
      cell: (delivery) =>
        delivery.status === 'failed' ? (
          <Button
            size="xs"
            variant="light"
            aria-label={`Requeue events ${delivery.firstEventSeq}–${delivery.lastEventSeq}`}
            onClick={() => void requeue(delivery)}
          >
            Requeue
          </Button>
        ) : null,
    },
  ];
  return (
    <Stack>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label="Status"
          placeholder="Any status"
          data={DELIVERY_STATUSES}
          value={filters.status ?? null}
          onChange={(value) => setFilter('status', value)}
          clearable
          w={200}
        />
        <Select
          label="Destination"
          placeholder="Any destination"
          data={(destinations.data?.data ?? []).map((item) => ({ value: item.id, label: item.name }))}
          value={filters.destinationId ?? null}
          onChange={(value) => setFilter('destinationId', value)}
          clearable
          searchable
          w={240}
        />
      </Group>
      <ServerList
        label="Deliveries"
        queryKey={[...DELIVERIES_KEY, filters]}
        fetchPage={(query) =>
          call(api.GET('/api/audit/siem/deliveries', { params: { query: { ...query, ...filters } } }))
        }
        columns={columns}
        rowKey={(delivery) => delivery.id}
        empty={{
          title: 'No deliveries',
          description:
            'Deliveries are batches of events sent to a SIEM destination; create a destination to start exporting.',
        }}
      />
    </Stack>
  );
}
