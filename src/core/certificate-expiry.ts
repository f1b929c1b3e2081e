import type { DbOrTx } from '../db/client.js';
import type { Notifications } from './notifications.js';

/** What the expiry events of a certificate need to know about it. */
export interface CertificateValidity {
  id: string;
  name: string;
  subject: string | null;
  notAfter: Date;
}

/**
 * Reports a certificate's expiry to the notification outbox: its deadline (`certificates.expiring`)
 * and its state now (`certificates.expired`: `expired` or `valid`). The notification sweep reports
 * every certificate so; the certificates module reports one in the transaction that stores new
 * material (upload, replacement, ACME issue and renewal), so a certificate that already is within a
 * threshold, or a renewal that ends an expired alert, is notified at once rather than at the next
 * sweep. The outbox's event identities make the sweep's later report of the same state queue nothing.
 */
export async function reportCertificateExpiry(
  tx: DbOrTx,
  notifications: Notifications,
  certificate: CertificateValidity,
  now = new Date(),
): Promise<void> {
  const { notAfter } = certificate;
  const resource = { type: 'ssl_certificate', id: certificate.id, name: certificate.name };
  const labels = { certificateId: certificate.id };
  const details = { subject: certificate.subject, notAfter: notAfter.toISOString() };
  const expired = notAfter <= now;
  if (!expired) {
    await notifications.emit(tx, {
      kind: 'certificates.expiring',
      resource,
      labels,
      details,
      deadline: notAfter,
      occurredAt: now,
    });
  }
  await notifications.emit(tx, {
    kind: 'certificates.expired',
    resource,
    labels,
    details,
    state: expired ? 'expired' : 'valid',
    occurredAt: now,
  });
}
