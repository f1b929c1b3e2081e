import { Modal, Radio, Select, Stack, TagsInput, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, call } from '../../api/client';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { CERTIFICATES_KEY, useDnsProviders } from './queries';

const MANUAL = 'manual';

/**
 * Orders a certificate from an ACME CA: the names, how the CA checks them (HTTP-01 answered by the
 * gateway, or DNS-01 through a DNS provider or TXT records created by hand), the account's email and
 * the directory. The order runs in the background; its page shows it progress.
 */
export function AcmeOrderDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const providers = useDnsProviders();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: {
      name: '',
      domains: [] as string[],
      challenge: 'http-01' as 'http-01' | 'dns-01',
      dnsProviderId: MANUAL,
      accountEmail: '',
      directoryUrl: '',
    },
    reasonFields: { CERTIFICATE_NAME_TAKEN: 'name' },
    submit: ({ dnsProviderId, directoryUrl, ...order }) =>
      call(
        api.POST('/api/ssl-certificates/acme', {
          body: {
            ...order,
            ...(directoryUrl.trim() ? { directoryUrl: directoryUrl.trim() } : {}),
            ...(order.challenge === 'dns-01' && dnsProviderId !== MANUAL ? { dnsProviderId } : {}),
          },
        }),
      ),
    onDone: async ({ data }) => {
      notifySuccess(`Ordering ${data.name}; its page shows the progress.`);
      form.reset();
      onClose();
      await queryClient.invalidateQueries({ queryKey: CERTIFICATES_KEY });
      navigate(`/certificates/${data.id}`);
    },
  });
  const providerChoices = [
    { value: MANUAL, label: 'Manual: I create the TXT records myself' },
    ...(providers.data?.data ?? []).map((provider) => ({
      value: provider.id,
      label: `${provider.name} (${provider.zone})`,
    })),
  ];
  return (
    <Modal opened={opened} onClose={onClose} title="Order a certificate with ACME" size="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} />
          <TextInput
            label="Name"
            description="e.g. app-example"
            data-autofocus
            {...form.getInputProps('name')}
          />
          <TagsInput
            label="Domains"
            description="Press Enter after each name; *.example.com needs DNS-01"
            splitChars={[',', ' ']}
            clearable
            {...form.getInputProps('domains')}
          />
          <Radio.Group label="Challenge" {...form.getInputProps('challenge')}>
            <Stack gap="xs" mt={6}>
              <Radio
                value="http-01"
                label="HTTP-01"
                description="The CA fetches a token from this gateway on port 80: the names must point here."
              />
              <Radio
                value="dns-01"
                label="DNS-01"
                description="A TXT record under each name proves control; works for wildcards and private hosts."
              />
            </Stack>
          </Radio.Group>
          {form.values.challenge === 'dns-01' && (
            <Select
              label="DNS provider"
              description="Who creates the TXT records (add providers under DNS providers)"
              data={providerChoices}
              allowDeselect={false}
              {...form.getInputProps('dnsProviderId')}
            />
          )}
          <TextInput
            label="Account email"
            type="email"
            description="The CA's contact for this account (expiry notices)"
            {...form.getInputProps('accountEmail')}
          />
          <TextInput
            label="Directory URL"
            description="Leave empty for the gateway's default CA (Let’s Encrypt); any RFC 8555 directory over https"
            {...form.getInputProps('directoryUrl')}
          />
          <FormActions submitLabel="Order certificate" submitting={submitting} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
