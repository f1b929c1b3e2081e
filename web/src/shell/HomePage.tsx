import { Alert, Anchor, Stack, Title } from '@mantine/core';
import { Link, Navigate } from 'react-router';
import { useCurrentUser } from '../auth/session';
import { useVisibleAreas } from './visible-areas';

/** `/`: the first area the user may open; a user whose group grants none is told so. */
export function HomePage() {
  const user = useCurrentUser();
  const first = useVisibleAreas().find((area) => area.anyOf.length > 0);
  if (first) return <Navigate to={first.path} replace />;
  return (
    <Stack>
      <Title order={1}>Welcome, {user.name}</Title>
      <Alert color="blue" title="No area is open to you yet">
        Your group {user.groupName} grants no scopes for any area of the gateway. Ask an administrator to add
        scopes to it. Meanwhile you can manage{' '}
        <Anchor component={Link} to="/account" inherit>
          your account
        </Anchor>
        .
      </Alert>
    </Stack>
  );
}
