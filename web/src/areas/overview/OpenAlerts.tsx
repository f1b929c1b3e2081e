import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { QueryView } from '../../components/QueryView';
import { RelativeTime } from '../../components/RelativeTime';
import { Section } from '../../components/Section';

type Alert = Answer<'/api/notifications/alerts', 'get'>['data'][number];

const SHOWN = 20;

function OpenAlert({ alert }: { alert: Alert }) {
  return (
    <Stack gap={2} role="listitem">
      <Group gap="xs" wrap="wrap">
        <Badge color="red" variant="light" tt="none">
          {alert.state}
        </Badge>
        <Anchor component={Link} to={alert.consolePath} fw={500}>
          {alert.summary}
        </Anchor>
      </Group>
      <Text size="sm" c="dimmed">
        Since <RelativeTime value={alert.since} /> · {alert.event}
      </Text>
    </Stack>
  );
}

/**
 * Watched conditions in a bad state now (an expired certificate, an open circuit …), oldest first,
 * each linking to its resource's page (the page notifications link to).
 */
export default function OpenAlerts() {
  const alerts = useQuery({
    queryKey: ['overview', 'alerts'],
    queryFn: () => call(api.GET('/api/notifications/alerts', { params: { query: { limit: SHOWN } } })),
  });
  return (
    <Section title="Open alerts">
      <QueryView query={alerts}>
        {({ data, pagination }) =>
          data.length === 0 ? (
            <Text c="dimmed">
              No open alert: every watched condition is normal. Rules under{' '}
              <Anchor component={Link} to="/notifications/rules" underline="always">
                Notifications
              </Anchor>{' '}
              decide who hears when that changes.
            </Text>
          ) : (
            <Stack gap="sm" role="list" aria-label="Open alerts">
              {data.map((alert) => (
                <OpenAlert key={`${alert.event}|${alert.resource.type}|${alert.resource.id}`} alert={alert} />
              ))}
              {pagination.total > data.length && (
                <Text size="sm" c="dimmed">
                  And {pagination.total - data.length} more.
                </Text>
              )}
            </Stack>
          )
        }
      </QueryView>
    </Section>
  );
}
