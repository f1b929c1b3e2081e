import { Button, Group, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import type { Column } from '../../components/DataTable';
import { notifySuccess } from '../../components/notify';
import { ServerList } from '../../components/ServerList';
import { DnsProviderDialog } from './DnsProviderDialog';
import { DNS_PROVIDERS_KEY, type DnsProvider, useMayManageCertificates } from './queries';

/** The DNS servers dns-01 orders publish their TXT records on (RFC 2136 with a TSIG key). */
export function DnsProvidersPanel() {
  const queryClient = useQueryClient();
  const mayManage = useMayManageCertificates();
  const [creating, create] = useDisclosure(false);
  const remove = async (provider: DnsProvider) => {
    await call(
      api.DELETE('/api/ssl-certificates/dns-providers/{id}', { params: { path: { id: provider.id } } }),
    );
    notifySuccess(`Deleted the DNS provider ${provider.name}.`);
    await queryClient.invalidateQueries({ queryKey: DNS_PROVIDERS_KEY });
  };
  const columns: Column<DnsProvider>[] = [
    { header: 'Name', cell: (provider) => provider.name },
    { header: 'Zone', cell: (provider) => provider.zone },
    { header: 'Server', cell: (provider) => `${provider.server}:${provider.port}` },
    { header: 'TSIG key', cell: (provider) => `${provider.tsigKeyName} (${provider.tsigAlgorithm})` },
    ...(mayManage
      ? [
          {
            header: 'Actions',
            cell: (provider: DnsProvider) => (
              <ConfirmButton
                size="xs"
                label="Delete"
                aria-label={`Delete DNS provider ${provider.name}`}
                title={`Delete the DNS provider ${provider.name}?`}
                message="Its TSIG secret is deleted too. A provider that an ACME certificate uses cannot be deleted."
                confirmLabel="Delete"
                onConfirm={() => remove(provider)}
              />
            ),
          },
        ]
      : []),
  ];
  const addButton = mayManage ? <Button onClick={create.open}>Add DNS provider</Button> : undefined;
  return (
    <Stack>
      {addButton && <Group justify="flex-end">{addButton}</Group>}
      <ServerList
        label="DNS providers"
        queryKey={DNS_PROVIDERS_KEY}
        fetchPage={(query) => call(api.GET('/api/ssl-certificates/dns-providers', { params: { query } }))}
        columns={columns}
        rowKey={(provider) => provider.id}
        search="Search DNS providers"
        empty={{
          title: 'No DNS providers',
          description:
            'Add the primary DNS server of a zone (BIND, Knot, PowerDNS) with a TSIG key, and DNS-01 orders publish their TXT records there by themselves. Without one, DNS-01 orders show the records to create by hand.',
          action: addButton,
        }}
      />
      {mayManage && <DnsProviderDialog opened={creating} onClose={create.close} />}
    </Stack>
  );
}
