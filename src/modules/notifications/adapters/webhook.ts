import type { EgressGuard } from '../../../core/egress-guard.js';
import { signatureHeaders } from '../../../core/webhook-signature.js';
import { asDeliveryError, type Outbound, postJson } from './outbound.js';

export interface WebhookTarget {
  url: string;
  /** HMAC-SHA256 key; without one the request is not signed. */
  secret: string | undefined;
  /** Custom headers (e.g. a receiver's own token), sent as given. */
  headers: Record<string, string>;
}

/**
 * POSTs the event as JSON, signed like the SIEM webhook: X-Infragate-Timestamp (Unix seconds) and
 * X-Infragate-Signature `sha256=HMAC(secret, "<timestamp>.<body>")`. X-Infragate-Delivery is the same
 * on every retry of one delivery, so a receiver can drop a repeat.
 */
export function sendWebhook(egress: EgressGuard, target: WebhookTarget, outbound: Outbound) {
  const body = JSON.stringify(outbound.body);
  return asDeliveryError(() =>
    postJson(
      egress,
      target.url,
      body,
      {
        ...target.headers,
        'x-infragate-delivery': outbound.deliveryId,
        'x-infragate-event': outbound.kind,
        ...(target.secret ? signatureHeaders(target.secret, body) : {}),
      },
      outbound.timeoutMs,
      'webhook',
    ),
  );
}
