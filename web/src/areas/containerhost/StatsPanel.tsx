import { Button, Group, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, call } from '../../api/client';
import { ApiError, describeError } from '../../api/errors';
import { readEventStream } from '../../api/event-stream';
import type { Answer } from '../../api/types';
import { uploadUrl } from '../../api/upload';
import { FactList } from '../../components/FactList';
import { formatBytes } from '../../components/format';
import { QueryView } from '../../components/QueryView';
import { RelativeTime } from '../../components/RelativeTime';
import { Sparkline } from '../../components/Sparkline';
import { containerKey } from './queries';

const STATS_PATH = '/api/containerhost/nodes/{nodeId}/containers/{containerId}/stats';
type Sample = Answer<typeof STATS_PATH, 'get'>['data'];
/** Samples the sparklines show while streaming (the engine reads about once a second). */
const KEPT = 60;

function SampleFacts({ sample }: { sample: Sample }) {
  return (
    <Stack gap="xs" w="100%">
      <FactList
        facts={[
          { label: 'CPU', value: sample.cpuPercent === null ? '—' : `${sample.cpuPercent.toFixed(2)} %` },
          {
            label: 'Memory',
            value: `${formatBytes(sample.memoryBytes)}${sample.memoryLimitBytes ? ` of ${formatBytes(sample.memoryLimitBytes)}` : ''}`,
          },
          {
            label: 'Network',
            value: `${formatBytes(sample.networkRxBytes)} in, ${formatBytes(sample.networkTxBytes)} out`,
          },
          {
            label: 'Block I/O',
            value: `${formatBytes(sample.blockReadBytes)} read, ${formatBytes(sample.blockWriteBytes)} written`,
          },
          { label: 'Processes', value: sample.pids ?? '—' },
        ]}
      />
      <Text size="xs" c="dimmed">
        Read <RelativeTime value={sample.readAt} />
      </Text>
    </Stack>
  );
}

/** The engine's readings as they come (`stream=true`, Server-Sent Events), the last {@link KEPT} kept. */
function useStreamedStats(nodeId: string, containerId: string, streaming: boolean) {
  const [samples, setSamples] = useState<Sample[]>([]);
  const [status, setStatus] = useState<string | undefined>();
  useEffect(() => {
    if (!streaming) return;
    const aborter = new AbortController();
    setSamples([]);
    setStatus('Streaming…');
    readEventStream(
      uploadUrl(STATS_PATH, { nodeId, containerId }, { stream: true }),
      { signal: aborter.signal },
      ({ event, data }) => {
        if (event === 'stats') setSamples((kept) => [...kept, data as Sample].slice(-KEPT));
        else if (event === 'end') setStatus('The stream ended: the container stopped.');
        else if (event === 'error') setStatus(`The stream failed: ${describeError(new ApiError(0, data))}`);
      },
    ).catch((error: unknown) => setStatus(`The stream failed: ${describeError(error)}`));
    return () => aborter.abort();
  }, [nodeId, containerId, streaming]);
  return { samples, status };
}

function StreamedStats({ samples, status }: { samples: Sample[]; status: string | undefined }) {
  const latest = samples.at(-1);
  const cpu = samples.map((sample) => sample.cpuPercent);
  const memory = samples.map((sample) => sample.memoryBytes);
  return (
    <Stack gap="sm" w="100%">
      {status && (
        <Text size="sm" c="dimmed" role="status">
          {status}
        </Text>
      )}
      {latest ? (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                CPU over the last {samples.length} readings
              </Text>
              <Sparkline
                values={cpu}
                label={`CPU: now ${latest.cpuPercent === null ? 'unknown' : `${latest.cpuPercent.toFixed(2)} %`}, highest ${Math.max(0, ...cpu.map((value) => value ?? 0)).toFixed(2)} %`}
              />
            </Stack>
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                Memory over the last {samples.length} readings
              </Text>
              <Sparkline
                values={memory}
                label={`Memory: now ${formatBytes(latest.memoryBytes)}, highest ${formatBytes(Math.max(...memory))}`}
              />
            </Stack>
          </SimpleGrid>
          <SampleFacts sample={latest} />
        </>
      ) : (
        <Text size="sm">Waiting for the engine's first reading…</Text>
      )}
    </Stack>
  );
}

/** A running container's statistics: one sample (two readings about a second apart), or a live stream with sparklines. */
export function StatsPanel({ nodeId, containerId }: { nodeId: string; containerId: string }) {
  const [streaming, setStreaming] = useState(false);
  const streamed = useStreamedStats(nodeId, containerId, streaming);
  const stats = useQuery({
    queryKey: [...containerKey(nodeId, containerId), 'stats'],
    // The route answers JSON, or an event stream when asked: this call asks for JSON.
    queryFn: async () =>
      (await call(api.GET(STATS_PATH, { params: { path: { nodeId, containerId } } }))) as Answer<
        typeof STATS_PATH,
        'get'
      >,
    enabled: !streaming,
    retry: false,
  });
  return (
    <Stack gap="sm" align="flex-start">
      <Group>
        <Switch
          label="Stream"
          checked={streaming}
          onChange={(event) => setStreaming(event.currentTarget.checked)}
        />
        {!streaming && (
          <Button size="xs" variant="default" onClick={() => void stats.refetch()} loading={stats.isFetching}>
            Take a new sample
          </Button>
        )}
      </Group>
      {streaming ? (
        <StreamedStats {...streamed} />
      ) : (
        <QueryView query={stats}>{({ data }) => <SampleFacts sample={data} />}</QueryView>
      )}
    </Stack>
  );
}
