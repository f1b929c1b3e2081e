import { Button, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { api, call } from '../../api/client';
import type { Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { RelativeTime } from '../../components/RelativeTime';
import { ServerList } from '../../components/ServerList';
import { ProjectDialog } from './ProjectDialog';
import { PROJECT_LIST_KEY, type Project, useMayManagePages } from './queries';
import { OpenSiteButton, ProjectLink } from './SiteLinks';

const columns: Column<Project>[] = [
  {
    header: 'Project',
    cell: (project) => (
      <div>
        <ProjectLink project={project} />
        <Text size="xs" c="dimmed">
          {project.slug}
        </Text>
      </div>
    ),
  },
  {
    header: 'Last deployment',
    cell: (project) =>
      project.lastDeployment ? (
        <div>
          <Text size="sm">
            <RelativeTime value={project.lastDeployment.createdAt} />
          </Text>
          <Text size="xs" c="dimmed">
            {project.deploymentCount === 1 ? '1 deployment' : `${project.deploymentCount} deployments`}
          </Text>
        </div>
      ) : (
        <Text size="sm" c="dimmed">
          Nothing deployed
        </Text>
      ),
  },
  { header: 'Site', cell: (project) => <OpenSiteButton project={project} /> },
];

/** The pages projects, searchable by name or slug, with create for those who may manage. */
export function ProjectsPanel() {
  const mayManage = useMayManagePages();
  const [creating, create] = useDisclosure(false);
  const createButton = mayManage ? <Button onClick={create.open}>Create project</Button> : undefined;
  return (
    <Stack>
      <PageHeader
        title="Pages"
        description="Static sites the gateway stores and serves: each upload is a deployment, one of them is live."
        action={createButton}
      />
      <ServerList
        label="Projects"
        queryKey={PROJECT_LIST_KEY}
        fetchPage={(query) => call(api.GET('/api/pages', { params: { query } }))}
        columns={columns}
        rowKey={(project) => project.id}
        search="Search projects"
        empty={{
          title: 'No projects yet',
          description: mayManage
            ? 'Create a project, then deploy a .tar.gz or .zip of your site: it goes live under /sites/<slug>/.'
            : 'Nobody has created a site yet. Someone with pages:manage can create one.',
          action: createButton,
        }}
      />
      {mayManage && <ProjectDialog opened={creating} onClose={create.close} />}
    </Stack>
  );
}
