import { PasswordInput, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { CONNECTIONS_KEY, type Provider } from './queries';

/** A connection by API key, or to a local server (whose key is optional). */
export function KeyConnectForm({
  provider,
  authType,
  onClose,
}: {
  provider: Provider;
  authType: 'api_key' | 'local';
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { name: provider.label, apiKey: '', baseUrl: '' },
    submit: ({ name, apiKey, baseUrl }) =>
      call(
        api.POST('/api/inference/connections', {
          body: {
            providerId: provider.id,
            name,
            authType,
            ...(apiKey ? { apiKey } : {}),
            ...(baseUrl ? { baseUrl } : {}),
          },
        }),
      ),
    onDone: async ({ data }) => {
      notifySuccess(`Connected ${data.name}.`);
      onClose();
      await queryClient.invalidateQueries({ queryKey: CONNECTIONS_KEY });
    },
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <FormBanner message={banner} />
        <TextInput label="Name" data-autofocus {...form.getInputProps('name')} />
        <PasswordInput
          label="API key"
          description={
            authType === 'local'
              ? 'Only if the server asks for one; stored encrypted, never shown again'
              : 'Stored encrypted, never shown again'
          }
          autoComplete="off"
          {...form.getInputProps('apiKey')}
        />
        {provider.allowBaseUrlOverride && (
          <TextInput
            label="Base URL"
            description={`Leave empty for ${provider.baseUrl}`}
            placeholder={provider.baseUrl}
            {...form.getInputProps('baseUrl')}
          />
        )}
        <FormActions submitLabel="Connect" submitting={submitting} onCancel={onClose} />
      </Stack>
    </form>
  );
}
