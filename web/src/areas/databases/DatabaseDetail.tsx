import { Alert, Button, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, call } from '../../api/client';
import { mayUse } from '../../auth/access';
import { useCurrentUser } from '../../auth/session';
import { notifySuccess } from '../../components/notify';
import { EditAndRemove, RecordPage } from '../../components/RecordPage';
import { Section } from '../../components/Section';
import { ConnectionStatus } from './ConnectionStatus';
import { DatabaseDialog } from './DatabaseDialog';
import { KeyValueConsole } from './KeyValueConsole';
import { DATABASES_KEY, useDatabase } from './queries';

/** One database (`/databases/:id`): its live status, its registration, and the command console. */
export function DatabaseDetail() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { scopes } = useCurrentUser();
  const canManage = mayUse(scopes, 'databases:manage', id);
  const canRun = mayUse(scopes, 'databases:read', id);
  const database = useDatabase(id);
  const [editing, setEditing] = useState(false);
  const remove = async (name: string) => {
    await call(api.DELETE('/api/databases/{id}', { params: { path: { id } } }));
    notifySuccess(`Removed ${name}.`);
    await queryClient.invalidateQueries({ queryKey: DATABASES_KEY });
    navigate('/databases');
  };
  return (
    <RecordPage
      back={{ to: '/databases', label: 'All databases' }}
      query={database}
      header={({ data }) => ({
        title: data.name,
        description: `${data.url} · database ${data.dbIndex}`,
        action: canManage && (
          <EditAndRemove
            onEdit={() => setEditing(true)}
            verb="Remove"
            title={`Remove ${data.name}?`}
            message="Its registration, its connections and everyone's command history on it go. The data on the server stays."
            onRemove={() => remove(data.name)}
          />
        ),
      })}
    >
      {({ data }) => (
        <>
          <Section
            title="Connection"
            action={
              <Button
                size="xs"
                variant="default"
                loading={database.isFetching}
                onClick={() => void database.refetch()}
              >
                Test connection
              </Button>
            }
          >
            <ConnectionStatus status={data.status} />
          </Section>
          <Section title="Console">
            {canRun ? (
              <KeyValueConsole database={data} />
            ) : (
              <Alert color="yellow" title="Running commands needs databases:read">
                <Text size="sm">
                  Writing needs databases:write as well, and admin commands databases:admin. Ask an
                  administrator to add them to your group.
                </Text>
              </Alert>
            )}
          </Section>
          {editing && <DatabaseDialog database={data} onClose={() => setEditing(false)} />}
        </>
      )}
    </RecordPage>
  );
}
