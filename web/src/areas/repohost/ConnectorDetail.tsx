import { Anchor, Badge, Button, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, call } from '../../api/client';
import { mayUse } from '../../auth/access';
import { useCurrentUser } from '../../auth/session';
import { type Column, DataTable } from '../../components/DataTable';
import { EmptyNotice } from '../../components/EmptyNotice';
import { notifySuccess } from '../../components/notify';
import { EditAndRemove, RecordPage } from '../../components/RecordPage';
import { Section } from '../../components/Section';
import { CapabilityList } from './CapabilityList';
import { EditConnectorDialog } from './EditConnectorDialog';
import { PreviewSummary } from './PreviewSummary';
import { type AllowlistEntry, CONNECTORS_KEY, type Connector } from './queries';
import { TestOutcome } from './TestOutcome';
import { TokenFacts } from './TokenFacts';
import { useRetest } from './use-retest';

const allowlistColumns: Column<AllowlistEntry>[] = [
  {
    header: 'Path',
    cell: (entry) =>
      entry.webUrl ? (
        <Anchor href={entry.webUrl} target="_blank" rel="noreferrer">
          {entry.fullPath}
        </Anchor>
      ) : (
        entry.fullPath
      ),
  },
  {
    header: 'Type',
    cell: (entry) => (
      <Badge variant="light" color={entry.entryType === 'group' ? 'grape' : 'blue'}>
        {entry.entryType}
      </Badge>
    ),
  },
  { header: 'Name', cell: (entry) => entry.name ?? '—' },
];

function ConnectorActions({ connector, onEdit }: { connector: Connector; onEdit: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = async () => {
    await call(
      api.DELETE('/api/integrations/repohost/connectors/{id}', { params: { path: { id: connector.id } } }),
    );
    notifySuccess(`Deleted ${connector.name}.`);
    await queryClient.invalidateQueries({ queryKey: CONNECTORS_KEY });
    navigate('/integrations');
  };
  return (
    <EditAndRemove
      onEdit={onEdit}
      verb="Delete"
      title={`Delete ${connector.name}?`}
      message="The connector and its stored token go; nothing changes on the repository host."
      onRemove={remove}
    />
  );
}

/** One connector (`/integrations/repohost/:id`): its last test, capabilities and allowlist. */
export function ConnectorDetail() {
  const { id = '' } = useParams();
  const canManage = mayUse(useCurrentUser().scopes, 'integrations:manage', id);
  const [editing, setEditing] = useState(false);
  const { retest, testing, report } = useRetest();
  const connector = useQuery({
    queryKey: [...CONNECTORS_KEY, id],
    queryFn: () => call(api.GET('/api/integrations/repohost/connectors/{id}', { params: { path: { id } } })),
  });
  return (
    <RecordPage
      back={{ to: '/integrations', label: 'All repository hosts' }}
      query={connector}
      header={({ data }) => ({
        title: data.name,
        description: data.baseUrl,
        action: canManage && <ConnectorActions connector={data} onEdit={() => setEditing(true)} />,
      })}
    >
      {({ data }) => (
        <>
          <Section
            title="Last test"
            action={
              canManage && (
                <Button
                  size="xs"
                  variant="default"
                  loading={testing === data.id}
                  onClick={() => void retest(data)}
                >
                  Re-test
                </Button>
              )
            }
          >
            <TestOutcome connector={data} />
            <TokenFacts facts={{ ...data, user: data.remoteUser }} />
          </Section>
          {report?.ok && <PreviewSummary preview={report} title="What the latest test saw" />}
          <Section title="Capabilities">
            <CapabilityList capabilities={data.capabilities} />
          </Section>
          <Section title="Allowlist">
            {data.allowlist.length === 0 ? (
              <EmptyNotice
                title="Nothing allowed yet"
                description={
                  canManage ? (
                    <Text size="sm">Edit the connector to pick the groups and projects it may act on.</Text>
                  ) : (
                    'No group or project is allowed.'
                  )
                }
              />
            ) : (
              <DataTable
                label="Allowlist"
                columns={allowlistColumns}
                rows={data.allowlist}
                rowKey={(entry) => `${entry.entryType}:${entry.remoteId}`}
              />
            )}
          </Section>
          {editing && (
            <EditConnectorDialog
              connector={data}
              visible={report?.allowlistEntries ?? []}
              onClose={() => setEditing(false)}
            />
          )}
        </>
      )}
    </RecordPage>
  );
}
