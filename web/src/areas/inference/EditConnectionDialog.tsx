import { Modal, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Body } from '../../api/types';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { StoredSecretInput } from '../../components/StoredSecretInput';
import { CONNECTIONS_KEY, type Connection, useCatalog } from './queries';

type Changes = Body<'/api/inference/connections/{id}', 'patch'>;

/** Renames a connection, replaces (or, for a local server, removes) its key, or moves its base URL. */
export function EditConnectionDialog({
  connection,
  onClose,
}: {
  connection: Connection;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const provider = useCatalog().data?.find((entry) => entry.id === connection.providerId);
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: {
      name: connection.name,
      apiKey: '',
      removeApiKey: false,
      baseUrl: connection.baseUrl ?? '',
    },
    submit: (values) => {
      const body: Changes = {
        ...(values.name !== connection.name ? { name: values.name } : {}),
        ...(values.apiKey ? { apiKey: values.apiKey } : values.removeApiKey ? { apiKey: null } : {}),
        ...(values.baseUrl !== (connection.baseUrl ?? '') ? { baseUrl: values.baseUrl || null } : {}),
      };
      return call(
        api.PATCH('/api/inference/connections/{id}', { params: { path: { id: connection.id } }, body }),
      );
    },
    onDone: async ({ data }) => {
      notifySuccess(`Saved ${data.name}.`);
      onClose();
      await queryClient.invalidateQueries({ queryKey: CONNECTIONS_KEY });
    },
  });
  return (
    <Modal opened onClose={onClose} title={`Edit ${connection.name}`}>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} />
          <TextInput label="Name" data-autofocus {...form.getInputProps('name')} />
          {connection.authType !== 'oauth' && (
            <StoredSecretInput
              label="New API key"
              description="Leave empty to keep the stored key (a new base URL drops it)"
              input={form.getInputProps('apiKey')}
              removal={
                connection.authType === 'local' && connection.hasApiKey
                  ? {
                      label: 'Remove the API key',
                      input: form.getInputProps('removeApiKey', { type: 'checkbox' }),
                    }
                  : undefined
              }
            />
          )}
          {provider?.allowBaseUrlOverride && (
            <TextInput
              label="Base URL"
              description={`Leave empty for the catalog's ${provider.baseUrl}`}
              {...form.getInputProps('baseUrl')}
            />
          )}
          <FormActions submitLabel="Save connection" submitting={submitting} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
