import { Button, Divider, Group, Modal, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { InlineForm, useApiForm } from '../../components/api-form';
import { ConfirmButton } from '../../components/ConfirmButton';
import { notifySuccess } from '../../components/notify';
import { ADMIN_KEY, type User, useGroups } from './queries';

/** Invalidates users and groups after a change and says what changed. */
function useAfterChange() {
  const queryClient = useQueryClient();
  return async (message: string) => {
    notifySuccess(message);
    await queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
  };
}

const path = (user: User) => ({ params: { path: { id: user.id } } });

function NameForm({ user }: { user: User }) {
  const changed = useAfterChange();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { name: user.name },
    submit: (body) => call(api.PATCH('/api/admin/users/{id}/name', { ...path(user), body })),
    onDone: () => changed('Name saved.'),
  });
  return (
    <InlineForm onSubmit={onSubmit} banner={banner} submitting={submitting} submitLabel="Save name">
      <TextInput label="Name" {...form.getInputProps('name')} />
    </InlineForm>
  );
}

function GroupForm({ user }: { user: User }) {
  const changed = useAfterChange();
  const groups = useGroups();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { group: user.groupName },
    submit: (body) => call(api.PATCH('/api/admin/users/{id}/group', { ...path(user), body })),
    onDone: (_, { group }) => changed(`Moved to ${group}; its scopes apply at once.`),
  });
  return (
    <InlineForm onSubmit={onSubmit} banner={banner} submitting={submitting} submitLabel="Move to group">
      <Select
        label="Group"
        data={(groups.data?.data ?? []).map((group) => group.name)}
        allowDeselect={false}
        {...form.getInputProps('group')}
      />
    </InlineForm>
  );
}

function PasswordForm({ user }: { user: User }) {
  const changed = useAfterChange();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { password: '' },
    submit: (body) => call(api.PUT('/api/admin/users/{id}/password', { ...path(user), body })),
    onDone: () => {
      form.reset();
      return changed('Password set.');
    },
  });
  return (
    <InlineForm onSubmit={onSubmit} banner={banner} submitting={submitting} submitLabel="Set password">
      <PasswordInput label="New password" autoComplete="new-password" {...form.getInputProps('password')} />
    </InlineForm>
  );
}

function DisabledToggle({ user, onChanged }: { user: User; onChanged: () => void }) {
  const changed = useAfterChange();
  const setDisabled = async (disabled: boolean) => {
    await call(api.PATCH('/api/admin/users/{id}/disabled', { ...path(user), body: { disabled } }));
    await changed(disabled ? `Disabled ${user.email}.` : `Enabled ${user.email}.`);
    onChanged();
  };
  if (user.disabled) {
    return (
      <Button variant="light" color="green" onClick={() => void setDisabled(false)}>
        Enable user
      </Button>
    );
  }
  return (
    <ConfirmButton
      label="Disable user"
      title={`Disable ${user.email}?`}
      message="Their sessions and API tokens stop working at once. You can enable the account again later."
      confirmLabel="Disable"
      onConfirm={() => setDisabled(true)}
    />
  );
}

/** Every change an administrator makes to one account, each saved on its own. */
export function EditUserDialog({ user, onClose }: { user: User; onClose: () => void }) {
  return (
    <Modal opened onClose={onClose} title={`Edit ${user.email}`} size="lg">
      <Stack>
        <NameForm user={user} />
        <GroupForm user={user} />
        <PasswordForm user={user} />
        <Divider />
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {user.disabled ? 'This account is disabled.' : 'This account can sign in.'}
          </Text>
          <DisabledToggle user={user} onChanged={onClose} />
        </Group>
      </Stack>
    </Modal>
  );
}
