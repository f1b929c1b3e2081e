import { Alert, Anchor, Button, Code, CopyButton, Group, Loader, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { describeError } from '../../api/errors';
import type { OAuthSession } from './queries';
import { SessionOutcome } from './SessionOutcome';
import { useDevicePoll } from './use-device-poll';

/** Device sign-in: the user enters the code on the provider's page; the console polls until done. */
export function DeviceFlow({
  started,
  onComplete,
  onRestart,
}: {
  started: OAuthSession;
  onComplete: (session: OAuthSession) => void;
  onRestart: () => void;
}) {
  const { session, pollError } = useDevicePoll(started);
  useEffect(() => {
    if (session.status === 'complete') onComplete(session);
  }, [session, onComplete]);
  if (session.status !== 'pending' && session.status !== 'complete')
    return <SessionOutcome session={session} onRestart={onRestart} />;
  return (
    <Stack gap="sm">
      <Text size="sm">
        1. Open{' '}
        <Anchor href={session.authorizationUrl} target="_blank" rel="noreferrer">
          the provider’s verification page
        </Anchor>{' '}
        ({session.authorizationUrl}).
      </Text>
      <Text size="sm">2. Enter this code there and approve the sign-in:</Text>
      <Group gap="sm">
        <Code fz="xl" fw={700} aria-label="User code">
          {session.userCode}
        </Code>
        <CopyButton value={session.userCode ?? ''}>
          {({ copied, copy }) => (
            <Button size="xs" variant="default" onClick={copy}>
              {copied ? 'Copied' : 'Copy code'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Group gap="xs" role="status">
        <Loader size="xs" aria-hidden />
        <Text size="sm" c="dimmed">
          Waiting for the approval; checking every {session.pollIntervalSeconds ?? 5} seconds until{' '}
          {new Date(session.expiresAt).toLocaleTimeString()}.
        </Text>
      </Group>
      {pollError !== undefined && (
        <Alert color="yellow" title="The provider could not be asked">
          {describeError(pollError)}. The console keeps trying.
        </Alert>
      )}
    </Stack>
  );
}
