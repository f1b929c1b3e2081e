import { Code, Modal, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { OneTimeSecret } from '../../components/OneTimeSecret';
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
  const queryClient = useQueryClient();
  const [secret, setSecret] = useState<string | undefined>();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { name: '', expiresInDays: '' as number | string },
    validate: { name: (value) => (value.trim() ? null : 'Name the token after what will use it') },
    submit: ({ name, expiresInDays }) =>
      call(
        api.POST('/api/pages/{projectId}/deploy-tokens', {
          params: { path: { projectId: project.id } },
          body: {
            name,
            ...(typeof expiresInDays === 'number'
              ? { expiresAt: new Date(Date.now() + expiresInDays * DAY_MS).toISOString() }
              : {}),
          },
        }),
      ),
    onDone: async ({ data }) => {
      setSecret(data.token);
      await queryClient.invalidateQueries({ queryKey: PAGES_KEY });
    },
  });
  const finish = () => {
    setSecret(undefined);
    form.reset();
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={finish}
      title={secret ? 'Your new deploy token' : 'Create a deploy token'}
      size="lg"
    >
      {secret ? (
        <OneTimeSecret secret={secret} copyLabel="Copy token" onDone={finish}>
          <Usage project={project} />
        </OneTimeSecret>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            <FormBanner message={banner} />
            <Text size="sm">
              A deploy token can only upload deployments of {project.name}, acting for you while you hold
              pages:manage.
            </Text>
            <TextInput
              label="Name"
              description="What will use it, e.g. github-actions"
              data-autofocus
              {...form.getInputProps('name')}
            />
            <NumberInput
              label="Expires in days"
              description="Leave empty for a token that does not expire"
              min={1}
              max={3650}
              allowDecimal={false}
              {...form.getInputProps('expiresInDays')}
            />
            <FormActions submitLabel="Create token" submitting={submitting} onCancel={finish} />
          </Stack>
        </form>
      )}
    </Modal>
  );
}
