import { Modal, PasswordInput, Select, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { ADMIN_KEY, useGroups } from './queries';

/** A new account in a group; the password may be set now or later. */
export function CreateUserDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const groups = useGroups();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { email: '', name: '', group: '', password: '' },
    submit: ({ password, ...fields }) =>
      call(api.POST('/api/admin/users', { body: { ...fields, ...(password ? { password } : {}) } })),
    onDone: async ({ data }) => {
      notifySuccess(`Created ${data.email}.`);
      form.reset();
      onClose();
      await queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
    },
  });
  return (
    <Modal opened={opened} onClose={onClose} title="Create a user">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} />
          <TextInput label="Email" type="email" data-autofocus {...form.getInputProps('email')} />
          <TextInput label="Name" {...form.getInputProps('name')} />
          <Select
            label="Group"
            placeholder="Choose a group"
            data={(groups.data?.data ?? []).map((group) => group.name)}
            searchable
            {...form.getInputProps('group')}
          />
          <PasswordInput
            label="Password"
            description="At least 8 characters; leave empty to set it later"
            autoComplete="new-password"
            {...form.getInputProps('password')}
          />
          <FormActions submitLabel={'Create user'} submitting={submitting} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
