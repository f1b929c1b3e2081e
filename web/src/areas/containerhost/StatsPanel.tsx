import { Button, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { FactList } from '../../components/FactList';
import { formatBytes, formatDateTime } from '../../components/format';
import { QueryView } from '../../components/QueryView';
import { containerKey } from './queries';

const STATS_PATH = '/api/containerhost/nodes/{nodeId}/containers/{containerId}/stats';

/** One statistics sample of a running container (the engine compares two readings, about a second apart). */
export function StatsPanel({ nodeId, containerId }: { nodeId: string; containerId: string }) {
  const stats = useQuery({
    queryKey: [...containerKey(nodeId, containerId), 'stats'],
    // The route answers JSON, or an event stream when asked: this call asks for JSON.
    queryFn: async () =>
      (await call(api.GET(STATS_PATH, { params: { path: { nodeId, containerId } } }))) as Answer<
        typeof STATS_PATH,
        'get'
      >,
    retry: false,
  });
  return (
    <Stack gap="sm" align="flex-start">
      <Button size="xs" variant="default" onClick={() => void stats.refetch()} loading={stats.isFetching}>
        Take a new sample
      </Button>
      <QueryView query={stats}>
        {({ data }) => (
          <Stack gap="xs" w="100%">
            <FactList
              facts={[
                { label: 'CPU', value: data.cpuPercent === null ? '—' : `${data.cpuPercent.toFixed(2)} %` },
                {
                  label: 'Memory',
                  value: `${formatBytes(data.memoryBytes)}${data.memoryLimitBytes ? ` of ${formatBytes(data.memoryLimitBytes)}` : ''}`,
                },
                {
                  label: 'Network',
                  value: `${formatBytes(data.networkRxBytes)} in, ${formatBytes(data.networkTxBytes)} out`,
                },
                {
                  label: 'Block I/O',
                  value: `${formatBytes(data.blockReadBytes)} read, ${formatBytes(data.blockWriteBytes)} written`,
                },
                { label: 'Processes', value: data.pids ?? '—' },
              ]}
            />
            <Text size="xs" c="dimmed">
              Read {formatDateTime(data.readAt)}
            </Text>
          </Stack>
        )}
      </QueryView>
    </Stack>
  );
}
