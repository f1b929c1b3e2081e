import { api, call } from '../../api/client';
import { NewTokenDialog } from '../../components/NewTokenDialog';
import { TOKENS_KEY } from './query-keys';

/** Names a new API token, then shows its secret once: it cannot be read again afterwards. */
export function CreateTokenDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <NewTokenDialog
      opened={opened}
      onClose={onClose}
      kind="API token"
      nameHint="What will use it, e.g. ci-deploy"
      queryKey={TOKENS_KEY}
      create={async ({ name, expiresInDays }) => {
        const { data } = await call(
          api.POST('/auth/tokens', {
            body: { name, ...(typeof expiresInDays === 'number' ? { expiresInDays } : {}) },
          }),
        );
        return data.token;
      }}
    />
  );
}
