import { type ConsoleArea, useConsoleAreas } from '../areas/area';
import { mayAccess } from '../auth/access';
import { useCurrentUser } from '../auth/session';

/** The areas the signed-in user's scopes allow, in navigation order. */
export function useVisibleAreas(): readonly ConsoleArea[] {
  const { scopes } = useCurrentUser();
  return useConsoleAreas().filter((area) => mayAccess(scopes, area));
}
