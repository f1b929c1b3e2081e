import { Group, Progress, Stack, Text } from '@mantine/core';
import { formatBytes } from './byte-size';

/**
 * How far a resumable upload has come: the bytes the gateway has written durably (so after a
 * reload the bar starts where the server stands, not at zero), as a bar and in words.
 */
export function ResumableUploadProgress({
  label,
  receivedBytes,
  totalBytes,
  color,
}: {
  /** The bar's accessible name, e.g. `Upload of images/disk.img`. */
  label: string;
  receivedBytes: number;
  totalBytes: number;
  /** `red` when it failed, `gray` when it waits to be resumed; the theme's colour otherwise. */
  color?: string;
}) {
  const percent = totalBytes === 0 ? 100 : Math.floor((receivedBytes / totalBytes) * 100);
  return (
    <Stack gap={2} miw={0}>
      <Progress
        value={percent}
        aria-label={label}
        size="md"
        transitionDuration={150}
        {...(color ? { color } : {})}
      />
      <Group gap="xs" justify="space-between" wrap="wrap">
        <Text size="xs" c="dimmed">
          {formatBytes(receivedBytes)} of {formatBytes(totalBytes)}
        </Text>
        <Text size="xs" c="dimmed">
          {percent}%
        </Text>
      </Group>
    </Stack>
  );
}
