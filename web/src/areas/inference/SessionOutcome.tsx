import { Alert, Button, Group, Text } from '@mantine/core';
import type { OAuthSession } from './queries';

/** How a sign-in ended when it did not end well, with the way to try again. */
export function SessionOutcome({ session, onRestart }: { session: OAuthSession; onRestart: () => void }) {
  const title =
    session.status === 'expired'
      ? 'The sign-in expired'
      : session.status === 'cancelled'
        ? 'The sign-in was cancelled'
        : 'The sign-in failed';
  return (
    <Alert color="red" title={title}>
      {session.errorCode && (
        <Text size="sm">
          <code>{session.errorCode}</code>
          {session.errorMessage ? `: ${session.errorMessage}` : ''}
        </Text>
      )}
      <Group mt="xs">
        <Button size="xs" variant="light" color="red" onClick={onRestart}>
          Start again
        </Button>
      </Group>
    </Alert>
  );
}
