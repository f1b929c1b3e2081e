import { Badge, Button, Select, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api, call } from '../../api/client';
import type { Column } from '../../components/DataTable';
import { formatDateTime } from '../../components/format';
import { notifyError, notifySuccess } from '../../components/notify';
import { ServerList } from '../../components/ServerList';
import {
  AUDIT_KEY,
  DELIVERIES_KEY,
  DELIVERY_STATUSES,
  DESTINATIONS_KEY,
  type Delivery,
  type DeliveryStatus,
} from './queries';

const STATUS_COLOURS: Record<string, string> = {
  queued: 'blue',
  delivering: 'blue',
  delivered: 'green',
  retrying: 'yellow',
  failed: 'red',
  paused: 'gray',
  discarded: 'gray',
};

const isStatus = (value: string | null): value is DeliveryStatus =>
  DELIVERY_STATUSES.includes(value as DeliveryStatus);

/** The export's deliveries, newest first, filtered by status; a failed one can be requeued. */
export function DeliveriesPanel() {
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const status = params.get('status');
  const destinations = useQuery({
    queryKey: [...DESTINATIONS_KEY, 'names'],
    queryFn: () => call(api.GET('/api/audit/siem/destinations', { params: { query: { limit: 100 } } })),
  });
  const destinationName = (id: string) => destinations.data?.data.find((item) => item.id === id)?.name ?? id;
  const chooseStatus = (value: string | null) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set('status', value);
      else next.delete('status');
      next.delete('page');
      return next;
    });
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
    { header: 'Created', cell: (delivery) => formatDateTime(delivery.createdAt) },
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
      <Select
        label="Status"
        placeholder="Any status"
        data={DELIVERY_STATUSES}
        value={isStatus(status) ? status : null}
        onChange={chooseStatus}
        clearable
        maw={240}
      />
      <ServerList
        label="Deliveries"
        queryKey={[...DELIVERIES_KEY, status]}
        fetchPage={(query) =>
          call(
            api.GET('/api/audit/siem/deliveries', {
              params: { query: { ...query, ...(isStatus(status) ? { status } : {}) } },
            }),
          )
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
