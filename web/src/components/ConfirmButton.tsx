import { Button, type ButtonProps, Group, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { type ReactNode, useState } from 'react';
import { notifyError } from './notify';

interface ConfirmButtonProps extends Omit<ButtonProps, 'children'> {
  /** The button's text (its accessible name), e.g. `Revoke other sessions`. */
  label: string;
  /** The dialog's title, a question: `Revoke your other sessions?` */
  title: string;
  /** What will happen, in plain words. */
  message: ReactNode;
  /** The confirming button's text, a verb: `Revoke`. */
  confirmLabel: string;
  /** The change; a refusal is shown as a toast and the dialog stays open. */
  onConfirm: () => Promise<unknown>;
  /** An accessible name when `label` alone is ambiguous in a list (`Revoke token ci`). */
  'aria-label'?: string;
}

/** A destructive action behind a confirmation dialog (focus moves into it; Escape cancels). */
export function ConfirmButton({
  label,
  title,
  message,
  confirmLabel,
  onConfirm,
  color = 'red',
  ...buttonProps
}: ConfirmButtonProps) {
  const [opened, { open, close }] = useDisclosure(false);
  const [working, setWorking] = useState(false);
  const confirm = async () => {
    setWorking(true);
    try {
      await onConfirm();
      close();
    } catch (error) {
      notifyError(error);
    } finally {
      setWorking(false);
    }
  };
  return (
    <>
      <Button color={color} variant="light" {...buttonProps} onClick={open}>
        {label}
      </Button>
      <Modal opened={opened} onClose={close} title={title} centered>
        <Stack>
          <Text size="sm">{message}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button color={color} loading={working} onClick={confirm}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
