import { Badge } from '@mantine/core';
import type { Query } from '../../api/types';

export type DeliveryStatus = NonNullable<Query<'/api/notifications/deliveries', 'get'>['status']>;

export const DELIVERY_STATUSES: { value: DeliveryStatus; color: string }[] = [
  { value: 'queued', color: 'blue' },
  { value: 'delivering', color: 'blue' },
  { value: 'retrying', color: 'orange' },
  { value: 'delivered', color: 'green' },
  { value: 'failed', color: 'red' },
];

/** A delivery's status, coloured. */
export function DeliveryStatusBadge({ status }: { status: string }) {
  return (
    <Badge color={DELIVERY_STATUSES.find((entry) => entry.value === status)?.color ?? 'gray'} variant="light">
      {status}
    </Badge>
  );
}
