import type { Certificate } from './queries';

/** Certificates expiring within this many days are flagged (as on the overview). */
export const EXPIRY_WARNING_DAYS = 30;

export interface StatusBadge {
  label: string;
  color: string;
}

const inDays = (days: number) => (days === 1 ? '1 day' : `${days} days`);

/** Expired, expiring within 30 days, or fine; nothing to say before the first certificate is issued. */
export function expiryBadge(certificate: Pick<Certificate, 'expired' | 'expiresInDays'>): StatusBadge {
  const { expired, expiresInDays } = certificate;
  if (expired === null || expiresInDays === null) return { label: 'Not issued yet', color: 'gray' };
  if (expired) return { label: 'Expired', color: 'red' };
  if (expiresInDays <= EXPIRY_WARNING_DAYS)
    return { label: `Expires in ${inDays(expiresInDays)}`, color: 'orange' };
  return { label: `Valid for ${inDays(expiresInDays)}`, color: 'green' };
}

/**
 * Where an ACME certificate stands (an uploaded one has nothing to add to its expiry): ordering,
 * waiting for the manual DNS records, renewing, or failed.
 */
export function acmeBadge(
  certificate: Pick<Certificate, 'source' | 'status' | 'acme' | 'lastError'>,
): StatusBadge | undefined {
  if (certificate.source !== 'acme') return undefined;
  switch (certificate.status) {
    case 'pending':
      return certificate.acme?.awaitingConfirmation
        ? { label: 'Waiting for DNS records', color: 'yellow' }
        : { label: 'Ordering', color: 'blue' };
    case 'renewing':
      return certificate.lastError
        ? { label: 'Renewal failing', color: 'orange' }
        : { label: 'Renewing', color: 'blue' };
    case 'failed':
      return { label: 'Failed', color: 'red' };
    case 'valid':
      return { label: 'Issued', color: 'green' };
  }
}
