import { Alert } from '@mantine/core';
import { useEffect } from 'react';
import type { ConsoleArea } from '../areas/area';
import { mayAccess } from '../auth/access';
import { useCurrentUser } from '../auth/session';

/** An area's page, or a plain refusal when the user's scopes do not reach it (a typed or old link). */
export function AreaRoute({ area }: { area: ConsoleArea }) {
  const { scopes } = useCurrentUser();
  useEffect(() => {
    document.title = `${area.label} · infragate`;
  }, [area.label]);
  if (!mayAccess(scopes, area)) {
    return (
      <Alert color="yellow" title={`You do not have access to ${area.label}`} role="alert">
        It needs one of the scopes {area.anyOf.join(', ')}. Ask an administrator to add one to your group.
      </Alert>
    );
  }
  const Page = area.page;
  return <Page />;
}
