import { Anchor, Button, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Project } from './queries';

/** The project's name, linking to its page. */
export function ProjectLink({ project }: { project: Pick<Project, 'id' | 'name'> }) {
  return (
    <Anchor component={Link} to={`/pages/${project.id}`} fw={500}>
      {project.name}
    </Anchor>
  );
}

/** Opens the live site (its production deployment) in a new tab; nothing before the first deployment. */
export function OpenSiteButton({
  project,
  size = 'xs',
}: {
  project: Pick<Project, 'name' | 'url' | 'productionDeploymentId'>;
  size?: 'xs' | 'sm';
}) {
  if (!project.productionDeploymentId) {
    return (
      <Text size="sm" c="dimmed">
        Not live yet
      </Text>
    );
  }
  return (
    <Button
      component="a"
      href={project.url}
      target="_blank"
      rel="noopener noreferrer"
      size={size}
      variant="default"
      aria-label={`Open site of ${project.name} (new tab)`}
    >
      Open site
    </Button>
  );
}
