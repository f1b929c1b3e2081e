import { Modal, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { ADMIN_KEY, type Group } from './queries';

/** A group's new name; its members and scopes stay. */
export function RenameGroupDialog({ group, onClose }: { group: Group; onClose: () => void }) {
  const queryClient = useQueryClient();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { name: group.name },
    submit: (body) => call(api.PATCH('/api/admin/groups/{id}', { params: { path: { id: group.id } }, body })),
    reasonFields: { GROUP_NAME_TAKEN: 'name' },
    onDone: async ({ data }) => {
      notifySuccess(`Renamed ${group.name} to ${data.name}.`);
      onClose();
      await queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
    },
  });
  return (
    <Modal opened onClose={onClose} title={`Rename ${group.name}`}>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} />
          <TextInput label="Name" data-autofocus {...form.getInputProps('name')} />
          <FormActions submitLabel="Rename" submitting={submitting} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
