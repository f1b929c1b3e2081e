import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Navigate, Outlet, useLocation } from 'react-router';
import { describeError } from '../api/errors';
import { signInPath } from '../auth/return-path';
import { useSession } from '../auth/session';
import { PageLoader } from '../components/PageLoader';

/** Pages behind sign-in: without a session the user goes to sign-in, and comes back here after. */
export function RequireSession() {
  const { user, ended, loadError, retry } = useSession();
  const location = useLocation();
  if (user === null) {
    return <Navigate to={signInPath(location.pathname + location.search, ended)} replace />;
  }
  if (user) return <Outlet />;
  if (!loadError) return <PageLoader />;
  return (
    <Center mih="60vh" p="md">
      <Stack align="center">
        <Title order={1} size="h3">
          The gateway does not answer
        </Title>
        <Text>{describeError(loadError)}</Text>
        <Button onClick={retry}>Try again</Button>
      </Stack>
    </Center>
  );
}
