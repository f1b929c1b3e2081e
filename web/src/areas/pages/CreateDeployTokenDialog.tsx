import { Code, Stack, Text } from '@mantine/core';
import { api, call } from '../../api/client';
import { NewTokenDialog } from '../../components/NewTokenDialog';
import { PAGES_KEY, type Project } from './queries';

const DAY_MS = 86_400_000;

/** How CI deploys with the token (the CLI, or curl against this gateway). */
function Usage({ project }: { project: Project }) {
  return (
    <Stack gap={4}>
      <Text size="sm">In CI, deploy with the CLI or with curl:</Text>
      <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {`infragate pages deploy dist/ --project ${project.slug}\n\ncurl -X POST ${window.location.origin}/api/pages/${project.id}/deployments \\\n  -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/gzip' \\\n  --data-binary @site.tar.gz`}
      </Code>
    </Stack>
  );
}

/** Names a deploy token for CI, then shows its secret once: it may only deploy this project. */
export function CreateDeployTokenDialog({
  opened,
  onClose,
  project,
}: {
  opened: boolean;
  onClose: () => void;
  project: Project;
}) {
  return (
    <NewTokenDialog
      opened={opened}
      onClose={onClose}
      kind="deploy token"
      nameHint="What will use it, e.g. github-actions"
      queryKey={PAGES_KEY}
      intro={
        <Text size="sm">
          A deploy token can only upload deployments of {project.name}, acting for you while you hold
          pages:manage.
        </Text>
      }
      usage={<Usage project={project} />}
      create={async ({ name, expiresInDays }) => {
        const { data } = await call(
          api.POST('/api/pages/{projectId}/deploy-tokens', {
            params: { path: { projectId: project.id } },
            body: {
              name,
              ...(typeof expiresInDays === 'number'
                ? { expiresAt: new Date(Date.now() + expiresInDays * DAY_MS).toISOString() }
                : {}),
            },
          }),
        );
        return data.token;
      }}
    />
  );
}
