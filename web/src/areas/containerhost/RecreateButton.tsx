import { Button, Checkbox, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { api, call } from '../../api/client';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';

/**
 * Recreate: a new container with the same configuration replaces this one (stopped first when
 * running, and started again), optionally after pulling its image again; a refusal stays in the dialog.
 */
export function RecreateButton({
  nodeId,
  name,
  onRecreated,
}: {
  nodeId: string;
  name: string;
  onRecreated: () => Promise<unknown>;
}) {
  const [opened, { open, close }] = useDisclosure(false);
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { pull: false },
    submit: ({ pull }) =>
      call(
        api.POST('/api/containerhost/nodes/{nodeId}/containers/{containerId}/recreate', {
          params: { path: { nodeId, containerId: name } },
          body: { pull },
        }),
      ),
    onDone: async (_, { pull }) => {
      notifySuccess(`Recreated ${name}${pull ? ' from a fresh pull of its image' : ''}.`);
      close();
      form.reset();
      await onRecreated();
    },
  });
  return (
    <>
      <Button size="xs" variant="light" aria-label={`Recreate ${name}`} onClick={open}>
        Recreate
      </Button>
      <Modal opened={opened} onClose={close} title={`Recreate ${name}?`} centered>
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            <FormBanner message={banner} title="Not recreated" />
            <Text size="sm">
              A new container with the same configuration (command, environment, ports, mounts, networks)
              replaces this one. A running one is stopped first and the new one started. Its writable layer is
              lost; named volumes stay.
            </Text>
            <Checkbox
              label="Pull the image again"
              description="Fetch the image's tag from its registry first, to run a newer build if there is one."
              {...form.getInputProps('pull', { type: 'checkbox' })}
            />
            <FormActions submitLabel="Recreate" submitting={submitting} onCancel={close} />
          </Stack>
        </form>
      </Modal>
    </>
  );
}
