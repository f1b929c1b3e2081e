import { Button, Code, Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import type { Column } from '../../components/DataTable';
import { formatDateTime } from '../../components/format';
import { expiresAtOf, NewTokenDialog } from '../../components/NewTokenDialog';
import { notifySuccess } from '../../components/notify';
import { ServerList } from '../../components/ServerList';
import { type Environment, type IngestToken, LOGGING_KEY } from './queries';

/** How a sender ships records with the token. */
function Usage() {
  return (
    <Stack gap={4}>
      <Text size="sm">Send records as JSON, NDJSON or OpenTelemetry (OTLP/HTTP at /v1/logs):</Text>
      <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {`curl -X POST ${window.location.origin}/api/logging/ingest \\\n  -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\\n  -d '{"level": "info", "message": "hello"}'`}
      </Code>
    </Stack>
  );
}

/** The ingest tokens of one environment: create one (its secret shown once), revoke one. */
export function IngestTokensPanel({ environment }: { environment: Environment }) {
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const tokensKey = [...LOGGING_KEY, 'tokens', environment.id];
  const path = { id: environment.id };
  const revoke = async (token: IngestToken) => {
    await call(
      api.DELETE('/api/logging/environments/{id}/tokens/{tokenId}', {
        params: { path: { ...path, tokenId: token.id } },
      }),
    );
    notifySuccess(`Revoked the token ${token.name}.`);
    await queryClient.invalidateQueries({ queryKey: tokensKey });
  };
  const columns: Column<IngestToken>[] = [
    { header: 'Name', cell: (token) => token.name },
    { header: 'Created', cell: (token) => formatDateTime(token.createdAt) },
    { header: 'Last used', cell: (token) => formatDateTime(token.lastUsedAt) },
    {
      header: 'Status',
      cell: (token) =>
        token.revokedAt
          ? `Revoked ${formatDateTime(token.revokedAt)}`
          : token.expiresAt
            ? `Expires ${formatDateTime(token.expiresAt)}`
            : 'Does not expire',
    },
    {
      header: 'Actions',
      cell: (token) =>
        token.revokedAt ? null : (
          <ConfirmButton
            size="xs"
            label="Revoke"
            aria-label={`Revoke token ${token.name}`}
            title={`Revoke the token ${token.name}?`}
            message="Senders using this token are refused from their next request on."
            confirmLabel="Revoke"
            onConfirm={() => revoke(token)}
          />
        ),
    },
  ];
  const createButton = <Button onClick={() => setCreating(true)}>Create ingest token</Button>;
  return (
    <Stack>
      <Group justify="flex-end">{createButton}</Group>
      <ServerList
        label="Ingest tokens"
        queryKey={tokensKey}
        fetchPage={(query) =>
          call(api.GET('/api/logging/environments/{id}/tokens', { params: { path, query } }))
        }
        columns={columns}
        rowKey={(token) => token.id}
        empty={{
          title: 'No ingest tokens',
          description:
            'Create an ingest token for each sender; it can only write records to this environment.',
          action: createButton,
        }}
      />
      <NewTokenDialog
        opened={creating}
        onClose={() => setCreating(false)}
        kind="ingest token"
        nameHint="What sends with it, e.g. api-servers"
        queryKey={tokensKey}
        intro={<Text size="sm">An ingest token can only write records to {environment.name}.</Text>}
        usage={<Usage />}
        create={async (token) => {
          const { data } = await call(
            api.POST('/api/logging/environments/{id}/tokens', {
              params: { path },
              body: { name: token.name, ...expiresAtOf(token) },
            }),
          );
          return data.token;
        }}
      />
    </Stack>
  );
}
