import {
  Alert,
  Fieldset,
  Group,
  Modal,
  PasswordInput,
  Progress,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import {
  type LayerState,
  layerPercent,
  nextLayerState,
} from '../../../../src/modules/containerhost/layer-progress';
import { ApiError } from '../../api/errors';
import { readEventStream } from '../../api/event-stream';
import type { Body, EventData } from '../../api/types';
import { uploadUrl } from '../../api/upload';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { nodeKey } from './queries';

const PULL_PATH = '/api/containerhost/nodes/{nodeId}/images/pull';
type PullProgress = EventData<typeof PULL_PATH, 'post'>;
type PullRequest = Body<typeof PULL_PATH, 'post'>;

/** The layers of the pull under way, in the order the engine first named them. */
function LayerList({ layers }: { layers: [string, LayerState][] }) {
  return (
    <Stack gap="xs">
      {layers.map(([layer, state]) => (
        <Stack key={layer} gap={2}>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="xs" ff="monospace" truncate>
              {layer}
            </Text>
            <Text size="xs" c="dimmed">
              {state.status}
            </Text>
          </Group>
          <Progress aria-label={`Layer ${layer}`} value={layerPercent(state)} />
        </Stack>
      ))}
    </Stack>
  );
}

/**
 * Pulls an image onto the node, showing the engine's progress per layer as it streams. Credentials
 * typed here go with this pull only; without them the node's stored ones for the registry are used.
 */
export function PullImageDialog({
  nodeId,
  opened,
  onClose,
}: {
  nodeId: string;
  opened: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [layers, setLayers] = useState<Map<string, LayerState>>(new Map());
  const [pulled, setPulled] = useState<string | undefined>();
  const aborter = useRef<AbortController | undefined>(undefined);
  useEffect(() => () => aborter.current?.abort(), []);
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { image: '', username: '', password: '' },
    validate: {
      username: (value, { password }) => (!value && password ? 'Give the user name with the password' : null),
      password: (value, { username }) => (username && !value ? 'Give the password with the user name' : null),
    },
    reasonFields: { REGISTRY_AUTH_FAILED: 'password' },
    submit: async ({ image, username, password }) => {
      setLayers(new Map());
      setPulled(undefined);
      aborter.current = new AbortController();
      const body: PullRequest = { image, ...(username ? { credentials: { username, password } } : {}) };
      let failure: ApiError | undefined;
      let done = false;
      await readEventStream(
        uploadUrl(PULL_PATH, { nodeId }),
        { method: 'POST', body, signal: aborter.current.signal },
        ({ event, data }) => {
          if (event === 'progress') {
            const progress = data as PullProgress;
            const { layer } = progress;
            if (layer) setLayers((now) => new Map(now).set(layer, nextLayerState(now.get(layer), progress)));
          } else if (event === 'pulled') done = true;
          else if (event === 'error') failure = new ApiError(422, data);
        },
      );
      if (failure) throw failure;
      if (!done) throw new Error('The pull stopped before the image arrived.');
      return image;
    },
    onDone: async (image) => {
      notifySuccess(`Pulled ${image}.`);
      setPulled(image);
      form.setFieldValue('password', '');
      await queryClient.invalidateQueries({ queryKey: nodeKey(nodeId) });
    },
  });
  const close = () => {
    aborter.current?.abort();
    setLayers(new Map());
    setPulled(undefined);
    form.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title="Pull an image" size="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} title="Not pulled" />
          {pulled && (
            <Alert color="green" role="status" title="Pulled">
              {pulled} is on the node.
            </Alert>
          )}
          <TextInput
            label="Image"
            description="A reference: nginx, library/nginx:1.27, registry.example:5000/team/app:1.4"
            data-autofocus
            {...form.getInputProps('image')}
          />
          <Fieldset legend="Registry credentials (optional)" variant="unstyled">
            <Stack gap="xs">
              <Text size="xs" c="dimmed">
                For this pull only; without them the credentials stored for the registry on this node are
                used.
              </Text>
              <TextInput label="Registry user name" autoComplete="off" {...form.getInputProps('username')} />
              <PasswordInput
                label="Registry password"
                autoComplete="new-password"
                {...form.getInputProps('password')}
              />
            </Stack>
          </Fieldset>
          <LayerList layers={[...layers]} />
          <FormActions
            submitLabel="Pull image"
            submitting={submitting}
            onCancel={close}
            cancelLabel={pulled ? 'Done' : 'Cancel'}
          />
        </Stack>
      </form>
    </Modal>
  );
}
