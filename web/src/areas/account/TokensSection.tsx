import { Button, Code } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { ConfirmButton } from '../../components/ConfirmButton';
import { type Column, DataTable } from '../../components/DataTable';
import { EmptyNotice } from '../../components/EmptyNotice';
import { notifySuccess } from '../../components/notify';
import { QueryView } from '../../components/QueryView';
import { RelativeTime } from '../../components/RelativeTime';
import { Section } from '../../components/Section';
import { ScopeBadges } from '../users/ScopeBadges';
import { CreateTokenDialog } from './CreateTokenDialog';
import { TOKENS_KEY } from './query-keys';

type ApiToken = Answer<'/auth/tokens', 'get'>['data'][number];

/** What a token is narrowed to; a token that is not carries all of my scopes. */
function TokenScopes({ scopes }: { scopes: string[] | null }) {
  if (scopes === null) return 'All of mine';
  if (scopes.length === 0) return 'None';
  return <ScopeBadges scopes={scopes} />;
}

/** My API tokens (for curl, scripts and the CLI): create one, revoke one. */
export function TokensSection() {
  const queryClient = useQueryClient();
  const [creating, { open, close }] = useDisclosure(false);
  const tokens = useQuery({ queryKey: TOKENS_KEY, queryFn: () => call(api.GET('/auth/tokens')) });
  const revoke = async (token: ApiToken) => {
    await call(api.DELETE('/auth/tokens/{id}', { params: { path: { id: token.id } } }));
    notifySuccess(`Revoked the token ${token.name}.`);
    await queryClient.invalidateQueries({ queryKey: TOKENS_KEY });
  };
  const columns: Column<ApiToken>[] = [
    { header: 'Name', cell: (token) => token.name },
    { header: 'Starts with', cell: (token) => (token.prefix ? <Code>{token.prefix}…</Code> : '—') },
    { header: 'Scopes', cell: (token) => <TokenScopes scopes={token.scopes} /> },
    { header: 'Created', cell: (token) => <RelativeTime value={token.createdAt} /> },
    { header: 'Last used', cell: (token) => <RelativeTime value={token.lastUsedAt} /> },
    {
      header: 'Expires',
      cell: (token) => (token.expiresAt ? <RelativeTime value={token.expiresAt} /> : 'Never'),
    },
    {
      header: 'Actions',
      cell: (token) => (
        <ConfirmButton
          size="xs"
          label="Revoke"
          aria-label={`Revoke token ${token.name}`}
          title={`Revoke the token ${token.name}?`}
          message="Scripts and tools using this token are refused from now on."
          confirmLabel="Revoke"
          onConfirm={() => revoke(token)}
        />
      ),
    },
  ];
  const createButton = <Button onClick={open}>Create token</Button>;
  return (
    <Section title="API tokens" action={createButton}>
      <QueryView query={tokens}>
        {({ data }) =>
          data.length === 0 ? (
            <EmptyNotice
              title="No API tokens"
              description="Create a token to call the API with curl or a script: send it as Authorization: Bearer <token>."
            />
          ) : (
            <DataTable label="API tokens" columns={columns} rows={data} rowKey={(token) => token.id} />
          )
        }
      </QueryView>
      <CreateTokenDialog opened={creating} onClose={close} />
    </Section>
  );
}
