import { notifications } from '@mantine/notifications';
import { describeError } from '../api/errors';

/** A short-lived message that a change went through. */
export function notifySuccess(message: string): void {
  notifications.show({ color: 'green', message });
}

/** A change refused outside a form (a row action, a confirmation): the gateway's reason, in words. */
export function notifyError(error: unknown): void {
  notifications.show({ color: 'red', title: 'Not done', message: describeError(error), autoClose: 8000 });
}

/**
 * The gateway drops a stored secret when a change moves where it is sent and the change did not give
 * it again (`droppedSecrets` beside `data`): say so, or the next use fails without a word of why.
 */
export function notifyDroppedSecrets(answer: unknown): void {
  const dropped = (answer as { droppedSecrets?: unknown } | null)?.droppedSecrets;
  if (!Array.isArray(dropped) || dropped.length === 0) return;
  notifications.show({
    color: 'yellow',
    title: 'Stored secret removed',
    message: `The destination changed, so the stored ${dropped.join(', ')} ${dropped.length === 1 ? 'was' : 'were'} removed: a secret is only sent where it was given. Enter it again to use it.`,
    autoClose: false,
  });
}
