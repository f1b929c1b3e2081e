import { Checkbox, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, call } from '../../api/client';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { parseCommand, parseEnv, parsePorts } from './container-form';
import { nodeKey, nodePath } from './queries';

/** The image references on the node, offered while typing (an image must be on the node to run). */
function useImageChoices(nodeId: string, enabled: boolean): string[] {
  const images = useQuery({
    queryKey: [...nodeKey(nodeId), 'image-choices'],
    queryFn: () =>
      call(
        api.GET('/api/containerhost/nodes/{nodeId}/images', {
          params: { path: { nodeId }, query: { limit: 100 } },
        }),
      ),
    enabled,
  });
  return [...new Set(images.data?.data.flatMap((image) => image.repoTags) ?? [])];
}

/** Creates a container from an image on the node (name, image, command, environment, ports), started or not. */
export function CreateContainerDialog({
  nodeId,
  opened,
  onClose,
}: {
  nodeId: string;
  opened: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const imageChoices = useImageChoices(nodeId, opened);
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { name: '', image: '', cmd: '', env: '', ports: '', start: true },
    validate: {
      env: (text) => {
        const parsed = parseEnv(text);
        return 'error' in parsed ? parsed.error : null;
      },
      ports: (text) => {
        const parsed = parsePorts(text);
        return 'error' in parsed ? parsed.error : null;
      },
    },
    submit: (values) => {
      const env = parseEnv(values.env);
      const ports = parsePorts(values.ports);
      const cmd = parseCommand(values.cmd);
      return call(
        api.POST('/api/containerhost/nodes/{nodeId}/containers', {
          params: { path: { nodeId } },
          body: {
            name: values.name,
            image: values.image,
            start: values.start,
            ...(cmd.length ? { cmd } : {}),
            ...('env' in env && Object.keys(env.env).length ? { env: env.env } : {}),
            ...('ports' in ports && ports.ports.length ? { ports: ports.ports } : {}),
          },
        }),
      );
    },
    onDone: async ({ data }) => {
      notifySuccess(`Created ${data.name}${data.state.running ? ' and started it' : ''}.`);
      form.reset();
      onClose();
      await queryClient.invalidateQueries({ queryKey: nodeKey(nodeId) });
      navigate(nodePath(nodeId, `/containers/${encodeURIComponent(data.name)}`));
    },
  });
  return (
    <Modal opened={opened} onClose={onClose} title="Create a container" size="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} />
          <TextInput
            label="Name"
            description="Letters, digits, _ . and -"
            data-autofocus
            {...form.getInputProps('name')}
          />
          {/* A native suggestion list: the browser offers the node's images while typing. */}
          <TextInput
            label="Image"
            description="An image on this node; pull it on the Images tab first"
            list="container-image-choices"
            {...form.getInputProps('image')}
          />
          <datalist id="container-image-choices">
            {imageChoices.map((image) => (
              <option key={image} value={image} />
            ))}
          </datalist>
          <TextInput
            label="Command"
            description="Words separated by spaces, quotes keep words whole; empty for the image’s command"
            {...form.getInputProps('cmd')}
          />
          <Textarea
            label="Environment"
            description="One NAME=value a line"
            autosize
            minRows={2}
            {...form.getInputProps('env')}
          />
          <Textarea
            label="Ports"
            description="One a line: 8080, 8081:8080 or 127.0.0.1:8081:8080/tcp"
            autosize
            minRows={2}
            {...form.getInputProps('ports')}
          />
          <Checkbox label="Start it once created" {...form.getInputProps('start', { type: 'checkbox' })} />
          <FormActions submitLabel="Create container" submitting={submitting} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
