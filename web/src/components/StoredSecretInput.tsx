import { Checkbox, PasswordInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import type { ReactNode } from 'react';

/**
 * A write-only secret in a form. The gateway never sends a stored secret back, so the field starts
 * empty: typing one replaces it, leaving it empty keeps it, and where one is stored and may go, a
 * box removes it (and locks the field).
 */
export function StoredSecretInput({
  label,
  description,
  input,
  removal,
}: {
  label: string;
  /** Whether one is stored and what typing does: `A password is set; type a new one to replace it`. */
  description: ReactNode;
  /** `form.getInputProps('password')` */
  input: GetInputPropsReturnType;
  /** The box that removes the stored secret, only where there is one to remove. */
  removal?: { label: string; input: GetInputPropsReturnType };
}) {
  return (
    <>
      <PasswordInput
        label={label}
        description={description}
        autoComplete="new-password"
        disabled={removal?.input.checked === true}
        {...input}
      />
      {removal && <Checkbox label={removal.label} {...removal.input} />}
    </>
  );
}
