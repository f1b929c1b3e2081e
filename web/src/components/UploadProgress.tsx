import { Group, Progress, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { percentSent, type UploadProgress as Sent } from '../api/upload';
import { formatBytes } from './format';

/**
 * The progress of one upload (from `uploadWithProgress`'s `onProgress`, or the bytes a resumable
 * upload's server holds): a labelled progress bar (`Upload of site.tar.gz`, its value the percent
 * sent) with the bytes sent, and a line the caller chooses (e.g. what happens once every byte is
 * sent).
 */
export function UploadProgress({
  name,
  progress,
  caption,
  inRow = false,
  color,
}: {
  /** What is being uploaded, usually the file's name. */
  name: string;
  progress: Sent;
  caption?: ReactNode;
  /** In a table row that names the file already: the bar and the bytes only. */
  inRow?: boolean;
  /** Another colour than the theme's, e.g. `gray` for an upload that no longer moves. */
  color?: string;
}) {
  const percent = percentSent(progress);
  const bytes = `${formatBytes(progress.loaded)} of ${formatBytes(progress.total)}`;
  const bar = (
    <Progress
      value={percent}
      aria-label={`Upload of ${name}`}
      size={inRow ? 'md' : 'lg'}
      {...(color ? { color } : {})}
    />
  );
  if (inRow)
    return (
      <Stack gap={2} miw={0}>
        {bar}
        <Group gap="xs" justify="space-between" wrap="wrap">
          <Text size="xs" c="dimmed">
            {bytes}
          </Text>
          <Text size="xs" c="dimmed">
            {percent}%
          </Text>
        </Group>
      </Stack>
    );
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
      {bar}
      <Text size="xs" c="dimmed">
        {bytes}
        {caption ? <> · {caption}</> : null}
      </Text>
    </Stack>
  );
}
