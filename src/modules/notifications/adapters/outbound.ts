import type { EgressGuard } from '../../../core/egress-guard.js';
import { describeError } from '../../../core/error-text.js';
import type { Message } from '../messages.js';

/** One notification on its way to one channel. */
export interface Outbound {
  /** The delivery's id (a random one for a test send): receivers deduplicate retries by it. */
  deliveryId: string;
  /** The event kind, or `notifications.test`. */
  kind: string;
  message: Message;
  /** The JSON document a webhook receives. */
  body: Record<string, unknown>;
  timeoutMs: number;
}

/** A send that did not succeed; the message is safe to store and show (never holds a credential). */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly httpStatus: number | null = null,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}

export const USER_AGENT = 'infragate-notify/1';

/**
 * Runs a send and turns whatever it throws into a DeliveryError. `hide` is removed from any message
 * first (a Slack URL carries its credential in the path, and some errors quote the URL they fetched).
 */
export async function asDeliveryError<T>(send: () => Promise<T>, hide?: string): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (error instanceof DeliveryError) throw error;
    const text = describeError(error);
    throw new DeliveryError(hide ? text.split(hide).join('<url>') : text);
  }
}

/** POSTs a JSON body through the egress guard (no redirects) and fails on anything but 2xx. */
export async function postJson(
  egress: EgressGuard,
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  what: string,
): Promise<{ httpStatus: number }> {
  const response = await egress.fetch(url, {
    method: 'POST',
    body,
    headers: { 'user-agent': USER_AGENT, 'content-type': 'application/json', ...headers },
    timeoutMs,
    maxRedirects: 0,
  });
  const text = await response.text().catch(() => '');
  if (response.status < 200 || response.status >= 300) {
    const snippet = text.trim().slice(0, 200);
    throw new DeliveryError(
      `${what} answered HTTP ${response.status}${snippet ? `: ${snippet}` : ''}`,
      response.status,
    );
  }
  return { httpStatus: response.status };
}
