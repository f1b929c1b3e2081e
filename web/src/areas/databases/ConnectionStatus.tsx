import { Badge, Group, Stack, Text } from '@mantine/core';
import { RelativeTime } from '../../components/RelativeTime';
import type { DatabaseStatus } from './queries';

/** What the gateway's live check of a database found: reachable (version, latency) or why not. */
export function ConnectionStatus({ status, compact = false }: { status: DatabaseStatus; compact?: boolean }) {
  if (status.reachable) {
    const version = status.serverVersion ? `server ${status.serverVersion}` : 'server';
    const latency = status.latencyMs === null ? '' : `, ${status.latencyMs.toFixed(2)} ms`;
    return (
      <Group gap="xs" wrap="wrap" role="status">
        <Badge color="green">Reachable</Badge>
        <Text size="sm">
          {version}
          {latency}
          {!compact && (
            <>
              {' · checked '}
              <RelativeTime value={status.checkedAt} />
            </>
          )}
        </Text>
      </Group>
    );
  }
  return (
    <Stack gap={2} role="status">
      <Group gap="xs" wrap="wrap">
        <Badge color="red">Not reachable</Badge>
        {status.reason && (
          <Text size="sm" ff="monospace">
            {status.reason}
          </Text>
        )}
      </Group>
      {status.error && (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {status.error}
        </Text>
      )}
    </Stack>
  );
}
