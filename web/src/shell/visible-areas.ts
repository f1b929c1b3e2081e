import { consoleAreas } from '../areas';
import type { ConsoleArea } from '../areas/area';
import { mayAccess } from '../auth/access';
import { useCurrentUser } from '../auth/session';

/** The areas the signed-in user's scopes allow, in navigation order. */
export function useVisibleAreas(): readonly ConsoleArea[] {
  const { scopes } = useCurrentUser();
  return consoleAreas.filter((area) => mayAccess(scopes, area));
}
