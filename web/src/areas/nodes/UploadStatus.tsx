import { Alert, Group, Loader, Text } from '@mantine/core';
import { describeError } from '../../api/errors';
import type { ActiveUpload } from './use-node-upload';

/** What the page's own upload is doing: sending, done, or stopped (and how to go on). */
export function UploadStatus({ active }: { active: ActiveUpload | undefined }) {
  if (!active) return null;
  const { session } = active;
  if (active.state === 'sending')
    return (
      <Group gap="xs" role="status">
        <Loader size="xs" aria-hidden />
        <Text size="sm">Sending {session.path}…</Text>
      </Group>
    );
  if (active.state === 'done')
    return (
      <Text size="sm" role="status">
        Uploaded {session.path}.
      </Text>
    );
  return (
    <Alert color="red" title={`The upload of ${session.path} stopped`}>
      <Text size="sm">{describeError(active.error)}</Text>
      {session.status === 'open' && (
        <Text size="sm">
          The gateway keeps what arrived: choose Resume below and pick the same file to go on.
        </Text>
      )}
    </Alert>
  );
}
