import { Modal, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Body } from '../../api/types';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { AllowlistPicker } from './AllowlistPicker';
import { allowlistOptions, entryKey, pickedEntries } from './allowlist';
import { type AllowlistEntry, CONNECTORS_KEY, type Connector } from './queries';

type Changes = Body<'/api/integrations/repohost/connectors/{id}', 'patch'>;

const sameKeys = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

/**
 * Changes a connector. Only what changed is sent: a new URL, token or allowlist is tested by the
 * gateway first (and refused with its reason), a rename alone calls nothing.
 */
export function EditConnectorDialog({
  connector,
  visible,
  onClose,
}: {
  connector: Connector;
  /** What the latest test of this visit saw, offered in the allowlist beside the saved entries. */
  visible: readonly AllowlistEntry[];
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const options = allowlistOptions(connector.allowlist, visible);
  const saved = connector.allowlist.map(entryKey);
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { name: connector.name, baseUrl: connector.baseUrl, token: '', allowlist: saved },
    submit: (values) => {
      const body: Changes = {
        ...(values.name !== connector.name ? { name: values.name } : {}),
        ...(values.baseUrl !== connector.baseUrl ? { baseUrl: values.baseUrl } : {}),
        ...(values.token ? { token: values.token } : {}),
        ...(sameKeys(values.allowlist, saved) ? {} : { allowlist: pickedEntries(options, values.allowlist) }),
      };
      return call(
        api.PATCH('/api/integrations/repohost/connectors/{id}', {
          params: { path: { id: connector.id } },
          body,
        }),
      );
    },
    onDone: async ({ data }) => {
      notifySuccess(`Saved ${data.name}.`);
      onClose();
      await queryClient.invalidateQueries({ queryKey: CONNECTORS_KEY });
    },
  });
  return (
    <Modal opened onClose={onClose} title={`Edit ${connector.name}`} size="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} />
          <TextInput label="Name" data-autofocus {...form.getInputProps('name')} />
          <TextInput label="Base URL" {...form.getInputProps('baseUrl')} />
          <PasswordInput
            label="New access token"
            description="Leave empty to keep the stored token (a new base URL drops it)"
            autoComplete="off"
            {...form.getInputProps('token')}
          />
          <AllowlistPicker
            options={options}
            description={
              visible.length > 0
                ? 'The saved entries and everything the latest test saw'
                : 'The saved entries; re-test the connector to pick from everything the token sees'
            }
            {...form.getInputProps('allowlist')}
          />
          <FormActions submitLabel="Save connector" submitting={submitting} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
