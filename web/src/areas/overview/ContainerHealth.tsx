import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { consolePages } from '../../../../src/core/console-pages';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { QueryView } from '../../components/QueryView';
import { RelativeTime } from '../../components/RelativeTime';
import { Section } from '../../components/Section';

type Check = Answer<'/api/containerhost/health-checks', 'get'>['data'][number];

const SHOWN = 20;
const TROUBLE = ['offline', 'degraded'] as const;

function FailingCheck({ check }: { check: Check }) {
  const page = consolePages.containerHealth(check.nodeId, check.containerName);
  return (
    <Stack gap={2} role="listitem">
      <Group gap="xs" wrap="wrap">
        <Badge color={check.status === 'offline' ? 'red' : 'orange'} variant="light" tt="none">
          {check.status}
        </Badge>
        <Anchor component={Link} to={page} fw={500}>
          {check.containerName}
        </Anchor>
        <Text size="sm" c="dimmed">
          on {check.nodeName}
        </Text>
      </Group>
      <Text size="sm" c="dimmed">
        {check.error ?? (check.httpStatus ? `HTTP ${check.httpStatus}` : 'no answer')}
        {check.lastCheckedAt && (
          <>
            {' · checked '}
            <RelativeTime value={check.lastCheckedAt} />
          </>
        )}
      </Text>
    </Stack>
  );
}

/** Containers whose saved health check is offline or degraded now, offline first. */
export default function ContainerHealth() {
  const checks = useQuery({
    queryKey: ['overview', 'container-health'],
    queryFn: async () => {
      const pages = await Promise.all(
        TROUBLE.map((status) =>
          call(api.GET('/api/containerhost/health-checks', { params: { query: { status, limit: SHOWN } } })),
        ),
      );
      return {
        data: pages.flatMap((page) => page.data).slice(0, SHOWN),
        total: pages.reduce((sum, page) => sum + page.pagination.total, 0),
      };
    },
  });
  return (
    <Section title="Container health">
      <QueryView query={checks}>
        {({ data, total }) =>
          data.length === 0 ? (
            <Text c="dimmed">
              Every saved health check is online. Checks are set per container under{' '}
              <Anchor component={Link} to={consolePages.containers()} underline="always">
                Containers
              </Anchor>
              .
            </Text>
          ) : (
            <Stack gap="sm" role="list" aria-label="Failing health checks">
              {data.map((check) => (
                <FailingCheck key={check.id} check={check} />
              ))}
              {total > data.length && (
                <Text size="sm" c="dimmed">
                  And {total - data.length} more.
                </Text>
              )}
            </Stack>
          )
        }
      </QueryView>
    </Section>
  );
}
