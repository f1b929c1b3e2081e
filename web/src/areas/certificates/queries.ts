import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { mayUse } from '../../auth/access';
import { useCurrentUser } from '../../auth/session';

export type Certificate = Answer<'/api/ssl-certificates/{id}', 'get'>['data'];
export type DnsProvider = Answer<'/api/ssl-certificates/dns-providers', 'get'>['data'][number];

/** The area's places in the query cache; a change invalidates `CERTIFICATES_KEY` (everything here). */
export const CERTIFICATES_KEY = ['certificates'];
export const CERTIFICATE_LIST_KEY = ['certificates', 'list'];
export const DNS_PROVIDERS_KEY = ['certificates', 'dns-providers'];
const certificateKey = (id: string) => ['certificates', 'one', id];

/** Whether the signed-in user may change certificates (upload, order, delete…), not only read them. */
export function useMayManageCertificates(certificateId?: string): boolean {
  return mayUse(useCurrentUser().scopes, 'certificates:manage', certificateId);
}

// While an order runs the page asks again this often, so its progress shows without a reload.
const POLL_MS = 2000;

/** Whether an ACME order for this certificate is under way (the first one, or a renewal). */
export function orderRunning(certificate: Pick<Certificate, 'status'>): boolean {
  return certificate.status === 'pending' || certificate.status === 'renewing';
}

/** One certificate, asked for again every two seconds while its ACME order runs. */
export function useCertificate(id: string) {
  return useQuery({
    queryKey: certificateKey(id),
    queryFn: () => call(api.GET('/api/ssl-certificates/{id}', { params: { path: { id } } })),
    refetchInterval: (query) => (query.state.data && orderRunning(query.state.data.data) ? POLL_MS : false),
  });
}

/** The DNS providers dns-01 orders can use (one page of 100: an installation has a handful). */
export function useDnsProviders() {
  return useQuery({
    queryKey: [...DNS_PROVIDERS_KEY, 'all'],
    queryFn: () =>
      call(api.GET('/api/ssl-certificates/dns-providers', { params: { query: { limit: 100 } } })),
  });
}
