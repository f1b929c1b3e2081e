import { Group, Modal, Progress, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/errors';
import { readEventStream } from '../../api/event-stream';
import { uploadUrl } from '../../api/upload';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { nodeKey } from './queries';

interface LayerProgress {
  layer: string;
  status: string;
  current?: number;
  total?: number;
}

/** Pulls an image onto the node, showing the engine's progress per layer as it streams. */
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
  const [layers, setLayers] = useState<Record<string, LayerProgress>>({});
  const aborter = useRef<AbortController | undefined>(undefined);
  useEffect(() => () => aborter.current?.abort(), []);
  const close = () => {
    aborter.current?.abort();
    setLayers({});
    onClose();
  };
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { image: '' },
    submit: async ({ image }) => {
      setLayers({});
      aborter.current = new AbortController();
      let failure: ApiError | undefined;
      let pulled = false;
      await readEventStream(
        uploadUrl('/api/containerhost/nodes/{nodeId}/images/pull', { nodeId }),
        { method: 'POST', body: { image }, signal: aborter.current.signal },
        ({ event, data }) => {
          if (event === 'progress') {
            const progress = data as LayerProgress;
            if (progress.layer) setLayers((now) => ({ ...now, [progress.layer]: progress }));
          } else if (event === 'pulled') pulled = true;
          else if (event === 'error') failure = new ApiError(422, data);
        },
      );
      if (failure) throw failure;
      if (!pulled) throw new Error('The pull stopped before the image arrived.');
      return image;
    },
    onDone: async (image) => {
      notifySuccess(`Pulled ${image}.`);
      form.reset();
      close();
      await queryClient.invalidateQueries({ queryKey: nodeKey(nodeId) });
    },
  });
  return (
    <Modal opened={opened} onClose={close} title="Pull an image" size="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} title="Not pulled" />
          <TextInput
            label="Image"
            description="A reference: nginx, library/nginx:1.27, registry.example:5000/team/app:1.4"
            data-autofocus
            {...form.getInputProps('image')}
          />
          {Object.values(layers).map((layer) => (
            <Stack key={layer.layer} gap={2}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text size="xs" ff="monospace">
                  {layer.layer}
                </Text>
                <Text size="xs" c="dimmed">
                  {layer.status}
                </Text>
              </Group>
              <Progress
                aria-label={`Layer ${layer.layer}`}
                value={layer.total ? Math.min(100, ((layer.current ?? 0) / layer.total) * 100) : 0}
              />
            </Stack>
          ))}
          <FormActions submitLabel="Pull image" submitting={submitting} onCancel={close} />
        </Stack>
      </form>
    </Modal>
  );
}
