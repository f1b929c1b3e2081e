import { Group, Progress, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { percentSent, type UploadProgress as Sent } from '../api/upload';
import { formatBytes } from './format';

/**
 * The progress of one upload (from `uploadWithProgress`'s `onProgress`): a labelled progress bar
 * (`Upload of site.tar.gz`, its value the percent sent) with the bytes sent, and a line the caller
 * chooses (e.g. what happens once every byte is sent).
 */
export function UploadProgress({
  name,
  progress,
  caption,
}: {
  /** What is being uploaded, usually the file's name. */
  name: string;
  progress: Sent;
  caption?: ReactNode;
}) {
  const percent = percentSent(progress);
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm" truncate>
          {name}
        </Text>
        <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
          {percent}%
        </Text>
      </Group>
      <Progress value={percent} aria-label={`Upload of ${name}`} size="lg" />
      <Text size="xs" c="dimmed">
        {formatBytes(progress.loaded)} of {formatBytes(progress.total)}
        {caption ? <> · {caption}</> : null}
      </Text>
    </Stack>
  );
}
