import { Button, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { api, call } from '../../api/client';
import type { Column } from '../../components/DataTable';
import { ServerList } from '../../components/ServerList';
import { AcmeOrderDialog } from './AcmeOrderDialog';
import { CertificateLink, DownloadPemButton } from './CertificateLinks';
import { CertificateMaterialDialog } from './CertificateMaterialDialog';
import { CERTIFICATE_LIST_KEY, type Certificate, useMayManageCertificates } from './queries';
import { ExpiryCell, SourceCell } from './StatusBadges';

const MAX_NAMES_SHOWN = 3;

/** The names a certificate is for: its SANs once issued, the ordered domains before. */
function NamesLine({ certificate }: { certificate: Certificate }) {
  const names = certificate.sans ?? certificate.acme?.domains ?? [];
  if (names.length === 0) return null;
  const more = names.length - MAX_NAMES_SHOWN;
  return (
    <Text size="xs" c="dimmed" style={{ wordBreak: 'break-word' }}>
      {names.slice(0, MAX_NAMES_SHOWN).join(', ')}
      {more > 0 ? ` and ${more} more` : ''}
    </Text>
  );
}

const columns: Column<Certificate>[] = [
  {
    header: 'Certificate',
    cell: (certificate) => (
      <div>
        <CertificateLink certificate={certificate} />
        <NamesLine certificate={certificate} />
      </div>
    ),
  },
  { header: 'Expiry', cell: (certificate) => <ExpiryCell certificate={certificate} /> },
  { header: 'Source', cell: (certificate) => <SourceCell certificate={certificate} /> },
  {
    header: 'Download',
    cell: (certificate) =>
      certificate.notAfter ? (
        <DownloadPemButton certificate={certificate} />
      ) : (
        <Text size="sm" c="dimmed">
          Not issued yet
        </Text>
      ),
  },
];

/** Every certificate, searchable by name, with upload and ACME ordering for those who may manage. */
export function CertificatesPanel() {
  const mayManage = useMayManageCertificates();
  const [uploading, upload] = useDisclosure(false);
  const [ordering, order] = useDisclosure(false);
  const actions = mayManage && (
    <Group gap="xs">
      <Button onClick={upload.open}>Upload certificate</Button>
      <Button variant="light" onClick={order.open}>
        Order with ACME
      </Button>
    </Group>
  );
  return (
    <Stack>
      {actions && <Group justify="flex-end">{actions}</Group>}
      <ServerList
        label="Certificates"
        queryKey={CERTIFICATE_LIST_KEY}
        fetchPage={(query) => call(api.GET('/api/ssl-certificates', { params: { query } }))}
        columns={columns}
        rowKey={(certificate) => certificate.id}
        search="Search certificates"
        empty={{
          title: 'No certificates yet',
          description: mayManage
            ? 'Upload a certificate with its private key, or order one from an ACME CA such as Let’s Encrypt.'
            : 'Nobody has stored a certificate yet. Someone with certificates:manage can upload or order one.',
          action: actions || undefined,
        }}
      />
      {mayManage && (
        <>
          <CertificateMaterialDialog opened={uploading} onClose={upload.close} />
          <AcmeOrderDialog opened={ordering} onClose={order.close} />
        </>
      )}
    </Stack>
  );
}
