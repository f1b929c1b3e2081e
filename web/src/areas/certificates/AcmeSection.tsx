import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { CopyableValue } from '../../components/CopyableValue';
import { type Column, DataTable } from '../../components/DataTable';
import { FactList } from '../../components/FactList';
import { formatDateTime } from '../../components/format';
import { notifyError, notifySuccess } from '../../components/notify';
import { Section } from '../../components/Section';
import { CERTIFICATES_KEY, type Certificate, useDnsProviders } from './queries';

type AcmeSettings = NonNullable<Certificate['acme']>;
type DnsRecord = AcmeSettings['dnsRecords'][number];

const recordColumns: Column<DnsRecord>[] = [
  { header: 'Name', cell: (record) => <CopyableValue value={record.name} label={`name ${record.name}`} /> },
  { header: 'Type', cell: (record) => record.type },
  {
    header: 'Value',
    cell: (record) => <CopyableValue value={record.value} label={`value for ${record.name}`} />,
  },
];

/** Manual dns-01: the TXT records to create, and Confirm once they are published. */
function ManualRecords({ certificate, mayManage }: { certificate: Certificate; mayManage: boolean }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const confirm = async () => {
    setConfirming(true);
    try {
      await call(
        api.POST('/api/ssl-certificates/{id}/acme/confirm', { params: { path: { id: certificate.id } } }),
      );
      notifySuccess('Confirmed: the CA checks the records now.');
      await queryClient.invalidateQueries({ queryKey: CERTIFICATES_KEY });
    } catch (error) {
      notifyError(error);
    } finally {
      setConfirming(false);
    }
  };
  return (
    <Section
      title="DNS records to create"
      action={
        mayManage && (
          <Button onClick={confirm} loading={confirming}>
            Confirm
          </Button>
        )
      }
    >
      <Text size="sm">
        Create these TXT records at your DNS host, wait until they are published, then confirm: only then does
        the CA check them.
      </Text>
      <DataTable
        label="DNS records to create"
        columns={recordColumns}
        rows={certificate.acme?.dnsRecords ?? []}
        rowKey={(record) => `${record.name} ${record.value}`}
      />
    </Section>
  );
}

/** Where the order stands, in words: running, waiting, failed (why, and when it retries), or issued. */
function OrderState({ certificate }: { certificate: Certificate }) {
  const next = formatDateTime(certificate.nextRenewalAt);
  switch (certificate.status) {
    case 'pending':
      if (certificate.acme?.awaitingConfirmation) return null;
      return (
        <Alert color="blue" title="Ordering from the CA">
          <Group gap="xs">
            <Loader size="xs" aria-label="Ordering" />
            <Text size="sm">The CA is checking the names. This page updates by itself.</Text>
          </Group>
        </Alert>
      );
    case 'failed':
      return (
        <Alert color="red" title="The order failed" role="alert">
          <Stack gap={4}>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {certificate.lastError ?? 'The CA gave no reason.'}
            </Text>
            {certificate.nextRenewalAt && (
              <Text size="sm">The gateway tries again with a new order at {next}.</Text>
            )}
          </Stack>
        </Alert>
      );
    case 'renewing':
      return (
        <Alert color={certificate.lastError ? 'orange' : 'blue'} title="Renewing">
          <Stack gap={4}>
            <Text size="sm">The current certificate is still served until the new one is issued.</Text>
            {certificate.lastError && (
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                Last attempt failed: {certificate.lastError}
              </Text>
            )}
            {certificate.nextRenewalAt && <Text size="sm">Next attempt: {next}.</Text>}
          </Stack>
        </Alert>
      );
    case 'valid':
      return (
        <Text size="sm">
          Issued.{' '}
          {certificate.nextRenewalAt ? `The gateway renews it from ${next}.` : 'Renewal is not scheduled.'}
        </Text>
      );
  }
}

/** An ACME certificate's order: its progress (asked again while it runs), manual records, settings. */
export function AcmeSection({ certificate, mayManage }: { certificate: Certificate; mayManage: boolean }) {
  const providers = useDnsProviders();
  const acme = certificate.acme;
  if (!acme) return null;
  const provider = providers.data?.data.find((candidate) => candidate.id === acme.dnsProviderId);
  let dnsMode: string | undefined;
  if (acme.challenge === 'dns-01')
    dnsMode = acme.dnsProviderId ? (provider?.name ?? acme.dnsProviderId) : 'Manual';
  return (
    <>
      {acme.awaitingConfirmation && <ManualRecords certificate={certificate} mayManage={mayManage} />}
      <Section title="ACME order">
        <OrderState certificate={certificate} />
        <FactList
          facts={[
            { label: 'Domains', value: acme.domains.join(', ') },
            { label: 'Challenge', value: acme.challenge.toUpperCase() },
            ...(dnsMode ? [{ label: 'DNS provider', value: dnsMode }] : []),
            { label: 'Account email', value: acme.accountEmail },
            { label: 'Directory', value: acme.directoryUrl },
          ]}
        />
      </Section>
    </>
  );
}
