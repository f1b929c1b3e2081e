import { Badge, Button, Group, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import type { Column } from '../../components/DataTable';
import { notifySuccess } from '../../components/notify';
import { RelativeTime } from '../../components/RelativeTime';
import { ServerList } from '../../components/ServerList';
import { CreateDeployTokenDialog } from './CreateDeployTokenDialog';
import { type DeployToken, PAGES_KEY, type Project, useMayManagePages } from './queries';

function TokenState({ token }: { token: DeployToken }) {
  if (token.revokedAt)
    return (
      <Badge color="gray">
        Revoked <RelativeTime value={token.revokedAt} />
      </Badge>
    );
  if (token.expiresAt && new Date(token.expiresAt) <= new Date()) return <Badge color="gray">Expired</Badge>;
  return <Badge color="green">Active</Badge>;
}

/** A project's deploy tokens for CI (never their secrets): create one (shown once), revoke one. */
export function DeployTokensPanel({ project }: { project: Project }) {
  const queryClient = useQueryClient();
  const mayManage = useMayManagePages(project.id);
  const [creating, create] = useDisclosure(false);
  const revoke = async (token: DeployToken) => {
    await call(
      api.DELETE('/api/pages/{projectId}/deploy-tokens/{tokenId}', {
        params: { path: { projectId: project.id, tokenId: token.id } },
      }),
    );
    notifySuccess(`Revoked the deploy token ${token.name}.`);
    await queryClient.invalidateQueries({ queryKey: PAGES_KEY });
  };
  const columns: Column<DeployToken>[] = [
    { header: 'Name', cell: (token) => token.name },
    {
      header: 'Created',
      cell: (token) => (
        <>
          <RelativeTime value={token.createdAt} /> by {token.createdBy ?? '—'}
        </>
      ),
    },
    { header: 'Last used', cell: (token) => <RelativeTime value={token.lastUsedAt} /> },
    {
      header: 'Expires',
      cell: (token) => (token.expiresAt ? <RelativeTime value={token.expiresAt} /> : 'Never'),
    },
    { header: 'State', cell: (token) => <TokenState token={token} /> },
    ...(mayManage
      ? [
          {
            header: 'Actions',
            cell: (token: DeployToken) =>
              token.revokedAt ? null : (
                <ConfirmButton
                  size="xs"
                  label="Revoke"
                  aria-label={`Revoke deploy token ${token.name}`}
                  title={`Revoke the deploy token ${token.name}?`}
                  message="CI using this token can no longer deploy, from now on."
                  confirmLabel="Revoke"
                  onConfirm={() => revoke(token)}
                />
              ),
          },
        ]
      : []),
  ];
  const createButton = mayManage ? <Button onClick={create.open}>Create deploy token</Button> : undefined;
  return (
    <Stack>
      {createButton && <Group justify="flex-end">{createButton}</Group>}
      <ServerList
        label="Deploy tokens"
        queryKey={[...PAGES_KEY, 'deploy-tokens', project.id]}
        fetchPage={(query) =>
          call(
            api.GET('/api/pages/{projectId}/deploy-tokens', {
              params: { path: { projectId: project.id }, query },
            }),
          )
        }
        columns={columns}
        rowKey={(token) => token.id}
        empty={{
          title: 'No deploy tokens',
          description:
            'Create a token for CI: it can upload deployments of this project and do nothing else.',
          action: createButton,
        }}
      />
      {mayManage && <CreateDeployTokenDialog opened={creating} onClose={create.close} project={project} />}
    </Stack>
  );
}
