import { Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import type { Column } from '../../components/DataTable';
import { formatBytes } from '../../components/format';
import { notifyError, notifySuccess } from '../../components/notify';
import { RelativeTime } from '../../components/RelativeTime';
import { ServerList } from '../../components/ServerList';
import { DeployDialog } from './DeployDialog';
import { type Deployment, fileCount, PAGES_KEY, type Project, shortId, useMayManagePages } from './queries';

/** Promote, pin or unpin, delete: one deployment's actions (delete only when neither live nor pinned). */
function DeploymentActions({ project, deployment }: { project: Project; deployment: Deployment }) {
  const queryClient = useQueryClient();
  const name = shortId(deployment.id);
  const path = { params: { path: { projectId: project.id, deploymentId: deployment.id } } };
  const changed = async (message: string) => {
    notifySuccess(message);
    await queryClient.invalidateQueries({ queryKey: PAGES_KEY });
  };
  const attempt = (change: () => Promise<unknown>) => async () => {
    try {
      await change();
    } catch (error) {
      notifyError(error);
    }
  };
  const promote = async () => {
    await call(api.POST('/api/pages/{projectId}/deployments/{deploymentId}/promote', path));
    await changed(`Deployment ${name} is live now.`);
  };
  const live = project.productionDeploymentId ? shortId(project.productionDeploymentId) : undefined;
  const setPinned = (pinned: boolean) =>
    attempt(async () => {
      await call(
        api.PATCH('/api/pages/{projectId}/deployments/{deploymentId}/pin', { ...path, body: { pinned } }),
      );
      await changed(
        pinned ? `Pinned deployment ${name}: retention keeps it.` : `Unpinned deployment ${name}.`,
      );
    });
  const remove = async () => {
    await call(api.DELETE('/api/pages/{projectId}/deployments/{deploymentId}', path));
    await changed(`Deleted deployment ${name}.`);
  };
  return (
    <Group gap={6}>
      {!deployment.production && (
        <ConfirmButton
          size="xs"
          color="blue"
          variant="filled"
          label="Promote"
          aria-label={`Promote deployment ${name}`}
          title={`Make deployment ${name} live?`}
          message={`Visitors of ${project.name} see deployment ${name} at once. ${
            live
              ? `The live deployment ${live} stays listed: promote it again to go back.`
              : 'Nothing is live yet.'
          }`}
          confirmLabel="Promote"
          onConfirm={promote}
        />
      )}
      <Button
        size="xs"
        variant="default"
        onClick={setPinned(!deployment.pinned)}
        aria-label={`${deployment.pinned ? 'Unpin' : 'Pin'} deployment ${name}`}
      >
        {deployment.pinned ? 'Unpin' : 'Pin'}
      </Button>
      {!deployment.production && !deployment.pinned && (
        <ConfirmButton
          size="xs"
          label="Delete"
          aria-label={`Delete deployment ${name}`}
          title={`Delete deployment ${name}?`}
          message="Its files and its preview link are gone for good."
          confirmLabel="Delete"
          onConfirm={remove}
        />
      )}
    </Group>
  );
}

/** A project's deployments, newest first: which one is live, pins, previews, and the actions. */
export function DeploymentsPanel({ project }: { project: Project }) {
  const mayManage = useMayManagePages(project.id);
  const [deploying, deploy] = useDisclosure(false);
  const columns: Column<Deployment>[] = [
    {
      header: 'Deployment',
      cell: (deployment) => (
        <div>
          <Text fw={500} ff="monospace" size="sm">
            {shortId(deployment.id)}
          </Text>
          <Text size="xs" c="dimmed">
            <RelativeTime value={deployment.createdAt} />
            {deployment.createdBy ? ` by ${deployment.createdBy}` : ''}
            {deployment.deployTokenId ? ' (deploy token)' : ''}
          </Text>
        </div>
      ),
    },
    {
      header: 'State',
      cell: (deployment) => (
        <Group gap={6}>
          {deployment.production ? (
            <Badge color="green">Live</Badge>
          ) : (
            <Badge color="gray">Preview only</Badge>
          )}
          {deployment.pinned && (
            <Badge color="blue" variant="light">
              Pinned
            </Badge>
          )}
        </Group>
      ),
    },
    {
      header: 'Files',
      cell: (deployment) =>
        `${fileCount(deployment.fileCount)}, ${formatBytes(deployment.sizeBytes)} (${deployment.archiveFormat})`,
    },
    {
      header: 'Preview',
      cell: (deployment) => (
        <Anchor
          href={deployment.previewUrl}
          target="_blank"
          rel="noopener noreferrer"
          size="sm"
          aria-label={`Preview deployment ${shortId(deployment.id)} (new tab)`}
        >
          Preview
        </Anchor>
      ),
    },
    ...(mayManage
      ? [
          {
            header: 'Actions',
            cell: (deployment: Deployment) => <DeploymentActions project={project} deployment={deployment} />,
          },
        ]
      : []),
  ];
  return (
    <Stack>
      <ServerList
        label="Deployments"
        queryKey={[...PAGES_KEY, 'deployments', project.id]}
        fetchPage={(query) =>
          call(
            api.GET('/api/pages/{projectId}/deployments', {
              params: { path: { projectId: project.id }, query },
            }),
          )
        }
        columns={columns}
        rowKey={(deployment) => deployment.id}
        empty={{
          title: 'Nothing deployed yet',
          description: mayManage
            ? 'Deploy a .tar.gz or .zip of the site; it goes live at once, and every deployment keeps a preview link.'
            : 'Someone with pages:manage (or CI with a deploy token) deploys the site.',
          action: mayManage ? <Button onClick={deploy.open}>Deploy</Button> : undefined,
        }}
      />
      {mayManage && <DeployDialog opened={deploying} onClose={deploy.close} project={project} />}
    </Stack>
  );
}
