import { Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { api, call } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CopyableValue } from '../../components/CopyableValue';
import { type Fact, FactList } from '../../components/FactList';
import { notifyError, notifySuccess } from '../../components/notify';
import { PageHeader } from '../../components/PageHeader';
import { QueryView } from '../../components/QueryView';
import { RelativeTime } from '../../components/RelativeTime';
import { Section } from '../../components/Section';
import { AcmeSection } from './AcmeSection';
import { DownloadPemButton } from './CertificateLinks';
import { CertificateMaterialDialog } from './CertificateMaterialDialog';
import { expiryBadge } from './certificate-status';
import { CERTIFICATES_KEY, type Certificate, useCertificate, useMayManageCertificates } from './queries';

function keyDescription(certificate: Certificate): string {
  const size = certificate.curve ?? (certificate.keyBits ? `${certificate.keyBits} bits` : undefined);
  return [certificate.keyType?.toUpperCase(), size].filter(Boolean).join(', ') || '—';
}

function chainDescription(length: number): string {
  if (length === 0) return 'None: the certificate alone';
  return length === 1 ? '1 certificate after this one' : `${length} certificates after this one`;
}

/** What the certificate says of itself, once there is one (uploaded, or issued by the CA). */
function materialFacts(certificate: Certificate): Fact[] {
  const expiry = expiryBadge(certificate);
  return [
    { label: 'Subject', value: certificate.subject },
    { label: 'Issuer', value: certificate.issuer },
    { label: 'Names', value: certificate.sans?.join(', ') || '—' },
    { label: 'Valid from', value: <RelativeTime value={certificate.notBefore} /> },
    {
      label: 'Valid until',
      value: (
        <Group gap="xs" component="span">
          <RelativeTime value={certificate.notAfter} />
          <Badge color={expiry.color} variant="light">
            {expiry.label}
          </Badge>
        </Group>
      ),
    },
    { label: 'Key', value: keyDescription(certificate) },
    { label: 'Chain', value: chainDescription(certificate.chainLength ?? 0) },
    { label: 'Serial number', value: certificate.serialNumber },
    {
      label: 'SHA-256 fingerprint',
      value: certificate.fingerprintSha256 ? (
        <CopyableValue value={certificate.fingerprintSha256} label="SHA-256 fingerprint" />
      ) : (
        '—'
      ),
    },
  ];
}

/** Renew now, replace, delete: what someone with certificates:manage may do to this certificate. */
function ManageActions({ certificate }: { certificate: Certificate }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [replacing, replace] = useDisclosure(false);
  const path = { params: { path: { id: certificate.id } } };
  const renew = async () => {
    try {
      await call(api.POST('/api/ssl-certificates/{id}/acme/renew', path));
      notifySuccess(`Renewing ${certificate.name}; this page shows the progress.`);
      await queryClient.invalidateQueries({ queryKey: CERTIFICATES_KEY });
    } catch (error) {
      notifyError(error);
    }
  };
  const remove = async () => {
    await call(api.DELETE('/api/ssl-certificates/{id}', path));
    notifySuccess(`Deleted ${certificate.name}.`);
    navigate('/certificates');
    await queryClient.invalidateQueries({ queryKey: CERTIFICATES_KEY });
  };
  return (
    <>
      {certificate.source === 'acme' ? (
        <Button variant="light" onClick={renew} disabled={certificate.status === 'pending'}>
          Renew now
        </Button>
      ) : (
        <Button variant="light" onClick={replace.open}>
          Replace
        </Button>
      )}
      <ConfirmButton
        label="Delete"
        title={`Delete ${certificate.name}?`}
        message="The certificate and its private key are removed; HTTPS names it served stop working unless another certificate covers them."
        confirmLabel="Delete"
        onConfirm={remove}
      />
      {certificate.source === 'uploaded' && (
        <CertificateMaterialDialog opened={replacing} onClose={replace.close} certificate={certificate} />
      )}
    </>
  );
}

function CertificateView({ certificate }: { certificate: Certificate }) {
  const mayManage = useMayManageCertificates(certificate.id);
  const issued = certificate.notAfter !== null;
  return (
    <Stack>
      <Anchor component={Link} to="/certificates" size="sm">
        ← All certificates
      </Anchor>
      <PageHeader
        title={certificate.name}
        description={
          certificate.source === 'acme' ? 'Ordered from an ACME CA' : 'Uploaded with its private key'
        }
        action={
          <Group gap="xs">
            {issued && <DownloadPemButton certificate={certificate} size="sm" />}
            {mayManage && <ManageActions certificate={certificate} />}
          </Group>
        }
      />
      {certificate.source === 'acme' && <AcmeSection certificate={certificate} mayManage={mayManage} />}
      <Section title="Certificate">
        {issued ? (
          <FactList facts={materialFacts(certificate)} />
        ) : (
          <Text c="dimmed">
            Nothing issued yet: the details appear once the CA has issued the certificate.
          </Text>
        )}
      </Section>
    </Stack>
  );
}

/** One certificate (`/certificates/<id>`): its details, ACME progress, and what can be done with it. */
export function CertificateDetail() {
  const { id = '' } = useParams();
  const certificate = useCertificate(id);
  return <QueryView query={certificate}>{({ data }) => <CertificateView certificate={data} />}</QueryView>;
}
