import { Modal, NumberInput, Stack, TextInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { type ComponentType, type ReactNode, useState } from 'react';
import { FormActions, FormBanner, useApiForm } from './api-form';
import { OneTimeSecret } from './OneTimeSecret';

export type NewToken = {
  name: string;
  /** A number of days; anything else (the field left empty) is a token that does not expire. */
  expiresInDays: number | string;
  /** Shown only with `scopesInput`; empty: the token is not narrowed. */
  scopes: string[];
};

/** What a dialog's scopes field is handed: the form's input props of `scopes` (value, error…). */
export type ScopesInputProps = GetInputPropsReturnType;

const DAY_MS = 86_400_000;

/** `{expiresAt}` for APIs that take an expiry time: that many days from now, or nothing. */
export function expiresAtOf({ expiresInDays }: NewToken): { expiresAt?: string } {
  return typeof expiresInDays === 'number'
    ? { expiresAt: new Date(Date.now() + expiresInDays * DAY_MS).toISOString() }
    : {};
}

interface NewTokenDialogProps {
  opened: boolean;
  onClose: () => void;
  /** `API token`, `deploy token`: the dialog's titles say "Create a …" and "Your new …". */
  kind: string;
  /** The API call; answers the secret, which is shown once. */
  create: (token: NewToken) => Promise<string>;
  /** The list the new token joins, invalidated once it exists. */
  queryKey: readonly unknown[];
  /** What the form says above its fields. */
  intro?: ReactNode;
  /** How to use the secret, shown under it. */
  usage?: ReactNode;
  /** The Name field's example, e.g. `e.g. ci-deploy`. */
  nameHint: string;
  /** A field choosing the scopes the token is narrowed to, for tokens that take them. */
  scopesInput?: ComponentType<ScopesInputProps>;
}

/** Names a new token (and when it expires), then shows its secret once: it cannot be read again. */
export function NewTokenDialog({
  opened,
  onClose,
  kind,
  create,
  queryKey,
  intro,
  usage,
  nameHint,
  scopesInput: ScopesInput,
}: NewTokenDialogProps) {
  const queryClient = useQueryClient();
  const [secret, setSecret] = useState<string | undefined>();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { name: '', expiresInDays: '', scopes: [] } as NewToken,
    validate: { name: (value) => (value.trim() ? null : 'Name the token after what will use it') },
    submit: create,
    onDone: async (token) => {
      setSecret(token);
      await queryClient.invalidateQueries({ queryKey });
    },
  });
  const finish = () => {
    setSecret(undefined);
    form.reset();
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={finish}
      title={secret ? `Your new ${kind}` : `Create a${/^[aeiou]/i.test(kind) ? 'n' : ''} ${kind}`}
      size="lg"
    >
      {secret ? (
        <OneTimeSecret secret={secret} copyLabel="Copy token" onDone={finish}>
          {usage}
        </OneTimeSecret>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            <FormBanner message={banner} />
            {intro}
            <TextInput label="Name" description={nameHint} data-autofocus {...form.getInputProps('name')} />
            <NumberInput
              label="Expires in days"
              description="Leave empty for a token that does not expire"
              min={1}
              max={3650}
              allowDecimal={false}
              {...form.getInputProps('expiresInDays')}
            />
            {ScopesInput && <ScopesInput {...form.getInputProps('scopes')} />}
            <FormActions submitLabel="Create token" submitting={submitting} onCancel={finish} />
          </Stack>
        </form>
      )}
    </Modal>
  );
}
