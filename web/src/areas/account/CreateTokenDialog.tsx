import { Modal, NumberInput, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { OneTimeSecret } from '../../components/OneTimeSecret';
import { TOKENS_KEY } from './query-keys';

/** Names a new token, then shows its secret once: it cannot be read again afterwards. */
export function CreateTokenDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [secret, setSecret] = useState<string | undefined>();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { name: '', expiresInDays: '' as number | string },
    validate: { name: (value) => (value.trim() ? null : 'Name the token after what will use it') },
    submit: ({ name, expiresInDays }) =>
      call(
        api.POST('/auth/tokens', {
          body: { name, ...(typeof expiresInDays === 'number' ? { expiresInDays } : {}) },
        }),
      ),
    onDone: async ({ data }) => {
      setSecret(data.token);
      await queryClient.invalidateQueries({ queryKey: TOKENS_KEY });
    },
  });
  const finish = () => {
    setSecret(undefined);
    form.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={finish} title={secret ? 'Your new API token' : 'Create an API token'}>
      {secret ? (
        <OneTimeSecret secret={secret} copyLabel="Copy token" onDone={finish} />
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            <FormBanner message={banner} />
            <TextInput
              label="Name"
              description="What will use it, e.g. ci-deploy"
              data-autofocus
              {...form.getInputProps('name')}
            />
            <NumberInput
              label="Expires in days"
              description="Leave empty for a token that does not expire"
              min={1}
              max={3650}
              allowDecimal={false}
              {...form.getInputProps('expiresInDays')}
            />
            <FormActions submitLabel={'Create token'} submitting={submitting} onCancel={finish} />
          </Stack>
        </form>
      )}
    </Modal>
  );
}
