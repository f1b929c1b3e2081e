import { useCurrentUser } from '../../auth/session';
import type { ScopesInputProps } from '../../components/NewTokenDialog';
import { useConsoleAreas } from '../area';
import { useResourceChoices } from '../users/queries';
import { ScopesInput } from '../users/ScopesInput';
import { heldSuggestions, scopeSuggestions } from '../users/scope-suggestions';

/**
 * The scopes a new API token of mine is narrowed to, chosen among those I hold (the areas', mine,
 * and those naming a resource I can see); left empty, the token carries all of mine.
 */
export function TokenScopesInput(props: ScopesInputProps) {
  const { scopes } = useCurrentUser();
  const areas = useConsoleAreas();
  const resources = useResourceChoices();
  return (
    <ScopesInput
      label="Scopes"
      description="Leave empty for all of your scopes. A token never does more than you may: a scope you lose, it loses too."
      resources={resources}
      data={heldSuggestions(scopeSuggestions(areas, [{ scopes }], resources), scopes)}
      clearable
      {...props}
    />
  );
}
