import { Anchor, Button, Tabs } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useMatch, useNavigate, useParams } from 'react-router';
import { api, call } from '../../api/client';
import { PageHeader } from '../../components/PageHeader';
import { QueryView } from '../../components/QueryView';
import { EnvironmentDialog } from './EnvironmentDialog';
import { IngestTokensPanel } from './IngestTokensPanel';
import { LOGGING_KEY } from './queries';
import { RecordsView } from './RecordsView';

/** One environment: its records (`…/<id>`) and its ingest tokens (`…/<id>/tokens`), and its settings. */
export function EnvironmentPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const base = `/logging/environments/${id}`;
  const tab = useMatch(`${base}/tokens`) ? 'tokens' : 'records';
  const [editing, setEditing] = useState(false);
  const environment = useQuery({
    queryKey: [...LOGGING_KEY, 'environment', id],
    queryFn: () => call(api.GET('/api/logging/environments/{id}', { params: { path: { id } } })),
  });
  return (
    <QueryView query={environment}>
      {({ data }) => (
        <>
          <Anchor component={Link} to="/logging" size="sm">
            ← All environments
          </Anchor>
          <PageHeader
            title={data.name}
            description={data.description || `Records are kept ${data.retentionDays} days.`}
            action={
              <Button variant="default" onClick={() => setEditing(true)}>
                Settings
              </Button>
            }
          />
          <Tabs
            value={tab}
            onChange={(value) => navigate(value === 'tokens' ? `${base}/tokens` : base)}
            keepMounted={false}
          >
            <Tabs.List mb="md">
              <Tabs.Tab value="records">Records</Tabs.Tab>
              <Tabs.Tab value="tokens">Ingest tokens</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="records">
              <RecordsView environmentId={data.id} />
            </Tabs.Panel>
            <Tabs.Panel value="tokens">
              <IngestTokensPanel environment={data} />
            </Tabs.Panel>
          </Tabs>
          {editing && <EnvironmentDialog environment={data} onClose={() => setEditing(false)} />}
        </>
      )}
    </QueryView>
  );
}
