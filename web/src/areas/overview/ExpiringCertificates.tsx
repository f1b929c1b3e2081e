import { Badge, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { type Column, DataTable } from '../../components/DataTable';
import { QueryView } from '../../components/QueryView';
import { RelativeTime } from '../../components/RelativeTime';
import { Section } from '../../components/Section';
import { CertificateLink } from '../certificates/CertificateLinks';
import { EXPIRY_WARNING_DAYS, expiryBadge } from '../certificates/certificate-status';

type Certificate = Answer<'/api/ssl-certificates', 'get'>['data'][number];

const columns: Column<Certificate>[] = [
  { header: 'Certificate', cell: (certificate) => <CertificateLink certificate={certificate} /> },
  { header: 'Expires', cell: (certificate) => <RelativeTime value={certificate.notAfter} /> },
  {
    header: 'Status',
    cell: (certificate) => {
      const badge = expiryBadge(certificate);
      return <Badge color={badge.color}>{badge.label}</Badge>;
    },
  },
];

/** Certificates expired or expiring within 30 days, soonest first. */
export default function ExpiringCertificates() {
  const certificates = useQuery({
    queryKey: ['overview', 'certificates'],
    queryFn: () =>
      call(
        api.GET('/api/ssl-certificates', {
          params: { query: { expiringWithinDays: EXPIRY_WARNING_DAYS, sort: 'notAfter', limit: 20 } },
        }),
      ),
  });
  return (
    <Section title="Certificates expiring soon">
      <QueryView query={certificates}>
        {({ data, pagination }) =>
          data.length === 0 ? (
            <Text c="dimmed">No certificate expires within {EXPIRY_WARNING_DAYS} days.</Text>
          ) : (
            <>
              <DataTable
                label="Certificates expiring soon"
                columns={columns}
                rows={data}
                rowKey={(c) => c.id}
              />
              {pagination.total > data.length && (
                <Text size="sm" c="dimmed">
                  {pagination.total - data.length} more expire within {EXPIRY_WARNING_DAYS} days.
                </Text>
              )}
            </>
          )
        }
      </QueryView>
    </Section>
  );
}
