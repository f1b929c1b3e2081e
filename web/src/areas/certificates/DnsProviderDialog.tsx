import { Modal, NumberInput, PasswordInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Body } from '../../api/types';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { DNS_PROVIDERS_KEY } from './queries';

type TsigAlgorithm = NonNullable<Body<'/api/ssl-certificates/dns-providers', 'post'>['tsigAlgorithm']>;
const ALGORITHMS: TsigAlgorithm[] = ['hmac-sha256', 'hmac-sha384', 'hmac-sha512'];

/** Adds an RFC 2136 DNS provider; its TSIG secret is sent once and never shown again. */
export function DnsProviderDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: {
      name: '',
      server: '',
      port: 53 as number | string,
      zone: '',
      tsigKeyName: '',
      tsigAlgorithm: 'hmac-sha256' as TsigAlgorithm,
      tsigSecret: '',
      ttl: 60 as number | string,
    },
    reasonFields: { DNS_PROVIDER_NAME_TAKEN: 'name' },
    submit: ({ port, ttl, ...provider }) =>
      call(
        api.POST('/api/ssl-certificates/dns-providers', {
          body: {
            ...provider,
            kind: 'rfc2136',
            ...(typeof port === 'number' ? { port } : {}),
            ...(typeof ttl === 'number' ? { ttl } : {}),
          },
        }),
      ),
    onDone: async ({ data }) => {
      notifySuccess(`Added the DNS provider ${data.name}.`);
      form.reset();
      onClose();
      await queryClient.invalidateQueries({ queryKey: DNS_PROVIDERS_KEY });
    },
  });
  return (
    <Modal opened={opened} onClose={onClose} title="Add a DNS provider" size="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} />
          <TextInput
            label="Name"
            description="e.g. primary-dns"
            data-autofocus
            {...form.getInputProps('name')}
          />
          <TextInput
            label="Zone"
            description="The zone the records go to, e.g. example.com"
            {...form.getInputProps('zone')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Server"
              description="Host name or address of the primary"
              {...form.getInputProps('server')}
            />
            <NumberInput
              label="Port"
              min={1}
              max={65535}
              allowDecimal={false}
              {...form.getInputProps('port')}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="TSIG key name" {...form.getInputProps('tsigKeyName')} />
            <Select
              label="TSIG algorithm"
              data={ALGORITHMS}
              allowDeselect={false}
              {...form.getInputProps('tsigAlgorithm')}
            />
          </SimpleGrid>
          <PasswordInput
            label="TSIG secret"
            description="Base64, as in the key file. Stored sealed and never shown again."
            autoComplete="off"
            {...form.getInputProps('tsigSecret')}
          />
          <NumberInput
            label="Record TTL (seconds)"
            min={1}
            max={86400}
            allowDecimal={false}
            {...form.getInputProps('ttl')}
          />
          <FormActions submitLabel="Add DNS provider" submitting={submitting} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
