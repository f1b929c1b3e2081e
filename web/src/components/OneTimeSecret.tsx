import { Alert, Button, Code, CopyButton, Group, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A secret the gateway answers once (a new token): shown with a copy button and a warning that it
 * cannot be read again, then Done.
 */
export function OneTimeSecret({
  secret,
  copyLabel,
  onDone,
  children,
}: {
  secret: string;
  /** The copy button's text, e.g. `Copy token`. */
  copyLabel: string;
  onDone: () => void;
  /** How to use it, shown under the secret. */
  children?: ReactNode;
}) {
  return (
    <Stack>
      <Alert color="yellow" title="Copy it now">
        This is the only time it is shown. Store it somewhere safe.
      </Alert>
      <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
        {secret}
      </Code>
      {children}
      <Group justify="flex-end">
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Button variant="light" onClick={copy}>
              {copied ? 'Copied' : copyLabel}
            </Button>
          )}
        </CopyButton>
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}
