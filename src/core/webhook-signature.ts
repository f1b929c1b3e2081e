import crypto from 'node:crypto';

/** The headers of a signed webhook request (SIEM export and notifications use the same scheme). */
export const SIGNATURE_HEADER = 'x-infragate-signature';
export const TIMESTAMP_HEADER = 'x-infragate-timestamp';

/**
 * `sha256=<hex>` of HMAC-SHA256(secret, `<timestamp>.<body>`), the value of X-Infragate-Signature.
 * The timestamp (Unix seconds, sent as X-Infragate-Timestamp) is signed too, so a receiver that
 * refuses old timestamps also refuses replays.
 */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** The two signature headers for a body sent now. */
export function signatureHeaders(secret: string, body: string, now = Date.now()): Record<string, string> {
  const timestamp = String(Math.floor(now / 1000));
  return { [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: webhookSignature(secret, timestamp, body) };
}
