import { api, call } from '../../api/client';
import { NewTokenDialog } from '../../components/NewTokenDialog';
import { TOKENS_KEY } from './query-keys';
import { TokenScopesInput } from './TokenScopesInput';

/**
 * Names a new API token (and the scopes it is narrowed to), then shows its secret once: it cannot
 * be read again afterwards.
 */
export function CreateTokenDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <NewTokenDialog
      opened={opened}
      onClose={onClose}
      kind="API token"
      nameHint="What will use it, e.g. ci-deploy"
      queryKey={TOKENS_KEY}
      scopesInput={TokenScopesInput}
      create={async ({ name, expiresInDays, scopes }) => {
        const { data } = await call(
          api.POST('/auth/tokens', {
            body: {
              name,
              ...(typeof expiresInDays === 'number' ? { expiresInDays } : {}),
              ...(scopes.length > 0 ? { scopes } : {}),
            },
          }),
        );
        return data.token;
      }}
    />
  );
}
