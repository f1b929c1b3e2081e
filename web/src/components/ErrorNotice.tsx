import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
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
  if (error instanceof ApiError && error.status === 404) return <NotFoundNotice />;
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

/** A record that is not there (deleted, or a stale link): trying again cannot help, its list can. */
function NotFoundNotice() {
  const { pathname } = useLocation();
  const list = `/${pathname.split('/')[1] ?? ''}`;
  return (
    <Alert color="yellow" title="This does not exist" role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">It may have been deleted, or the link is out of date.</Text>
        <Anchor component={Link} to={list} size="sm">
          Back to the list
        </Anchor>
      </Stack>
    </Alert>
  );
}
