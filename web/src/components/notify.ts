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
