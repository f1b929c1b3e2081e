import { Anchor, Button, Code, Group, Stack, Tabs } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useMatch, useNavigate, useParams } from 'react-router';
import { api, call } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { notifySuccess } from '../../components/notify';
import { PageHeader } from '../../components/PageHeader';
import { QueryView } from '../../components/QueryView';
import { DeployDialog } from './DeployDialog';
import { DeploymentsPanel } from './DeploymentsPanel';
import { DeployTokensPanel } from './DeployTokensPanel';
import { DomainsPanel } from './DomainsPanel';
import { ProjectDialog } from './ProjectDialog';
import { PAGES_KEY, type Project, useMayManagePages, useProject } from './queries';
import { OpenSiteButton } from './SiteLinks';

const TABS = [
  { value: 'deployments', label: 'Deployments', path: '' },
  { value: 'domains', label: 'Domains', path: '/domains' },
  { value: 'tokens', label: 'Deploy tokens', path: '/tokens' },
] as const;

/** Deploy, edit, delete: what someone with pages:manage may do to the whole project. */
function ManageActions({ project }: { project: Project }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [deploying, deploy] = useDisclosure(false);
  const [editing, edit] = useDisclosure(false);
  const remove = async () => {
    await call(api.DELETE('/api/pages/{projectId}', { params: { path: { projectId: project.id } } }));
    notifySuccess(`Deleted ${project.name}.`);
    navigate('/pages');
    await queryClient.invalidateQueries({ queryKey: PAGES_KEY });
  };
  return (
    <>
      <Button onClick={deploy.open}>Deploy</Button>
      <Button variant="default" onClick={edit.open}>
        Edit
      </Button>
      <ConfirmButton
        label="Delete"
        aria-label="Delete project"
        title={`Delete ${project.name}?`}
        message={`Every deployment, custom domain and deploy token of the project goes with it, and /sites/${project.slug}/ stops answering.`}
        confirmLabel="Delete project"
        onConfirm={remove}
      />
      <DeployDialog opened={deploying} onClose={deploy.close} project={project} />
      <ProjectDialog opened={editing} onClose={edit.close} project={project} />
    </>
  );
}

function ProjectView({ project }: { project: Project }) {
  const navigate = useNavigate();
  const mayManage = useMayManagePages(project.id);
  const base = `/pages/${project.id}`;
  const domains = useMatch(`${base}/domains`);
  const tokens = useMatch(`${base}/tokens`);
  const tab = domains ? 'domains' : tokens ? 'tokens' : 'deployments';
  return (
    <Stack gap={0}>
      <Anchor component={Link} to="/pages" size="sm" mb="xs">
        ← All projects
      </Anchor>
      <PageHeader
        title={project.name}
        description={
          <>
            Served at <Code>{project.url}</Code>
            {project.spaFallback ? ' as a single-page app' : ''}
          </>
        }
        action={
          <Group gap="xs">
            <OpenSiteButton project={project} size="sm" />
            {mayManage && <ManageActions project={project} />}
          </Group>
        }
      />
      <Tabs
        value={tab}
        onChange={(value) => navigate(`${base}${TABS.find((entry) => entry.value === value)?.path ?? ''}`)}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          {TABS.map((entry) => (
            <Tabs.Tab key={entry.value} value={entry.value}>
              {entry.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="deployments">
          <DeploymentsPanel project={project} />
        </Tabs.Panel>
        <Tabs.Panel value="domains">
          <DomainsPanel project={project} />
        </Tabs.Panel>
        <Tabs.Panel value="tokens">
          <DeployTokensPanel project={project} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

/** One project (`/pages/<id>`): its deployments, custom domains (`/domains`) and deploy tokens (`/tokens`). */
export function ProjectPage() {
  const { projectId = '' } = useParams();
  const project = useProject(projectId);
  return <QueryView query={project}>{({ data }) => <ProjectView project={data} />}</QueryView>;
}
