import { Modal, Stack, Switch, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { ADMIN_KEY, type Group } from './queries';

/** A group's name and whether its members must sign in with a second factor; members and scopes stay. */
export function GroupSettingsDialog({ group, onClose }: { group: Group; onClose: () => void }) {
  const queryClient = useQueryClient();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { name: group.name, requireMfa: group.requireMfa },
    submit: (body) => call(api.PATCH('/api/admin/groups/{id}', { params: { path: { id: group.id } }, body })),
    reasonFields: { GROUP_NAME_TAKEN: 'name' },
    onDone: async ({ data }) => {
      notifySuccess(`Saved the group ${data.name}.`);
      onClose();
      await queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
    },
  });
  return (
    <Modal opened onClose={onClose} title={`Settings of ${group.name}`}>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} />
          <TextInput label="Name" data-autofocus {...form.getInputProps('name')} />
          <Switch
            label="Require two-factor sign-in"
            description="Members without an authenticator set one up at their next sign-in with a password."
            {...form.getInputProps('requireMfa', { type: 'checkbox' })}
          />
          <FormActions submitLabel="Save" submitting={submitting} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
