import { Button } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { notifyError, notifySuccess } from '../../components/notify';
import { type Delivery, NOTIFICATIONS_KEY } from './queries';

/** Sends a failed delivery again, with a fresh set of attempts (nothing for any other status). */
export function RequeueButton({ delivery }: { delivery: Pick<Delivery, 'id' | 'summary' | 'status'> }) {
  const queryClient = useQueryClient();
  if (delivery.status !== 'failed') return null;
  const requeue = async () => {
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
  return (
    <Button
      size="xs"
      variant="default"
      aria-label={`Requeue ${delivery.summary}`}
      onClick={() => void requeue()}
    >
      Requeue
    </Button>
  );
}
