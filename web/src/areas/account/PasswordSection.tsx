import { Button, Group, PasswordInput, SimpleGrid } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { Section } from '../../components/Section';
import { SESSIONS_KEY } from './query-keys';

/** Change my password with the current one; my other browser sessions end. */
export function PasswordSection() {
  const queryClient = useQueryClient();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { currentPassword: '', newPassword: '', repeated: '' },
    fieldLabels: { currentPassword: 'The password', newPassword: 'The new password' },
    // Asked twice, as at setup: a typo in a password nobody sees would lock me out.
    validate: {
      repeated: (value, values) => (value === values.newPassword ? null : 'The two new passwords differ.'),
    },
    submit: ({ currentPassword, newPassword }) =>
      call(api.PUT('/auth/me/password', { body: { currentPassword, newPassword } })),
    onDone: async ({ revoked }) => {
      form.reset();
      notifySuccess(
        revoked === 0 ? 'Password changed.' : `Password changed; signed out ${revoked} other session(s).`,
      );
      await queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
    },
  });
  return (
    <Section title="Password">
      <form onSubmit={onSubmit} noValidate>
        <FormBanner message={banner} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} mb="sm">
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            {...form.getInputProps('currentPassword')}
          />
          <PasswordInput
            label="New password"
            description="At least 8 characters. Your other sessions are signed out."
            autoComplete="new-password"
            {...form.getInputProps('newPassword')}
          />
          <PasswordInput
            label="Repeat the new password"
            autoComplete="new-password"
            {...form.getInputProps('repeated')}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" loading={submitting}>
            Change password
          </Button>
        </Group>
      </form>
    </Section>
  );
}
