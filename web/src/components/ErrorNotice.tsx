import { Alert, Button, Stack, Text } from '@mantine/core';
import { ApiError, describeError } from '../api/errors';

/**
 * What a page shows instead of data it could not load. A 403 says plainly what is missing, so a
 * page the user may not see is never blank.
 */
export function ErrorNotice({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  if (error instanceof ApiError && error.status === 403) {
    return (
      <Alert color="yellow" title="You do not have access to this" role="alert">
        {error.requiredScope
          ? `It needs the scope ${error.requiredScope}. Ask an administrator to add it to your group.`
          : 'Ask an administrator for access.'}
      </Alert>
    );
  }
  return (
    <Alert color="red" title="This could not be loaded" role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{describeError(error)}</Text>
        {onRetry && (
          <Button size="xs" variant="light" color="red" onClick={onRetry}>
            Try again
          </Button>
        )}
      </Stack>
    </Alert>
  );
}
