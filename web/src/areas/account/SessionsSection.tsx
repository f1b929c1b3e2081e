import { Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { ConfirmButton } from '../../components/ConfirmButton';
import { type Column, DataTable } from '../../components/DataTable';
import { notifySuccess } from '../../components/notify';
import { QueryView } from '../../components/QueryView';
import { RelativeTime } from '../../components/RelativeTime';
import { Section } from '../../components/Section';
import { SESSIONS_KEY } from './query-keys';
import { describeUserAgent } from './user-agent';

type BrowserSession = Answer<'/auth/me/sessions', 'get'>['data'][number];

const columns: Column<BrowserSession>[] = [
  { header: 'Started', cell: (session) => <RelativeTime value={session.createdAt} /> },
  { header: 'Last used', cell: (session) => <RelativeTime value={session.lastUsedAt} /> },
  {
    header: 'Browser',
    cell: (session) => (
      <Text size="sm" title={session.userAgent ?? undefined}>
        {describeUserAgent(session.userAgent)}
      </Text>
    ),
  },
  { header: 'Address', cell: (session) => session.clientIp ?? '—' },
  {
    header: 'Current',
    cell: (session) =>
      session.current ? (
        <Text size="sm" fw={600}>
          This browser
        </Text>
      ) : (
        '—'
      ),
  },
];

/** Where I am signed in, and a way to sign out everywhere else. */
export function SessionsSection() {
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: SESSIONS_KEY, queryFn: () => call(api.GET('/auth/me/sessions')) });
  const revokeOthers = async () => {
    const { revoked } = await call(api.POST('/auth/me/sessions/revoke-others'));
    notifySuccess(revoked === 1 ? 'Revoked 1 other session.' : `Revoked ${revoked} other sessions.`);
    await queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
  };
  return (
    <Section
      title="Sessions"
      action={
        <ConfirmButton
          label="Revoke other sessions"
          title="Revoke your other sessions?"
          message="Every browser signed in as you, except this one, is signed out at once."
          confirmLabel="Revoke"
          onConfirm={revokeOthers}
        />
      }
    >
      <QueryView query={sessions}>
        {({ data }) => (
          <DataTable label="Sessions" columns={columns} rows={data} rowKey={(session) => session.id} />
        )}
      </QueryView>
    </Section>
  );
}
