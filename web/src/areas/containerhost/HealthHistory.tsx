import { Badge, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { QueryView } from '../../components/QueryView';
import { RelativeTime } from '../../components/RelativeTime';
import { Section } from '../../components/Section';
import { Sparkline } from '../../components/Sparkline';
import { nodeKey, STATUS_COLORS } from './queries';

const SHOWN = 50;

/** The latest results of a saved check: response times as a sparkline (dots coloured by status), the newest in words. */
export function HealthHistory({ nodeId, containerName }: { nodeId: string; containerName: string }) {
  const results = useQuery({
    queryKey: [...nodeKey(nodeId), 'health', containerName, 'results'],
    queryFn: () =>
      call(
        api.GET('/api/containerhost/nodes/{nodeId}/containers/{containerName}/health-check/results', {
          params: { path: { nodeId, containerName }, query: { limit: SHOWN } },
        }),
      ),
    refetchInterval: 15_000,
  });
  return (
    <Section title="Recent results">
      <QueryView query={results}>
        {({ data }) => {
          if (data.length === 0)
            return <Text c="dimmed">No results yet: the first probe runs within its interval.</Text>;
          const oldestFirst = [...data].reverse();
          const [latest] = data;
          const counts = new Map<string, number>();
          for (const result of data) counts.set(result.status, (counts.get(result.status) ?? 0) + 1);
          return (
            <Stack gap="xs">
              <Sparkline
                values={oldestFirst.map((result) => result.responseMs)}
                colors={oldestFirst.map(
                  (result) => `var(--mantine-color-${STATUS_COLORS[result.status]}-filled)`,
                )}
                label={`Response times of the last ${data.length} probes, oldest first: ${[...counts].map(([status, count]) => `${count} ${status}`).join(', ')}`}
              />
              <Group gap="xs">
                <Badge color={STATUS_COLORS[latest!.status]} variant="light">
                  {latest!.status}
                </Badge>
                <Text size="sm">
                  <RelativeTime value={latest!.checkedAt} />
                  {latest!.responseMs !== null && ` · ${latest!.responseMs} ms`}
                  {latest!.error && ` · ${latest!.error}`}
                </Text>
              </Group>
            </Stack>
          );
        }}
      </QueryView>
    </Section>
  );
}
