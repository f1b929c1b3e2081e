import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { consolePages } from '../../../../src/core/console-pages';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { EmptyNotice } from '../../components/EmptyNotice';
import { QueryView } from '../../components/QueryView';
import { Section } from '../../components/Section';

type Destination = Answer<'/api/audit/siem/destinations', 'get'>['data'][number];

const needsAttention = (destination: Destination) =>
  destination.health.circuit !== 'closed' || destination.health.backlog.failed > 0;

function DestinationTrouble({ destination }: { destination: Destination }) {
  const { circuit, backlog, lastError } = destination.health;
  return (
    <Stack gap={2}>
      <Group gap="xs">
        <Anchor component={Link} to={consolePages.siemDestinations()} fw={500}>
          {destination.name}
        </Anchor>
        {circuit !== 'closed' && <Badge color="red">Circuit {circuit.replace('_', '-')}</Badge>}
        {backlog.failed > 0 && (
          <Anchor
            component={Link}
            to={consolePages.siemDeliveries({ destinationId: destination.id, status: 'failed' })}
            size="sm"
          >
            {backlog.failed} failed {backlog.failed === 1 ? 'delivery' : 'deliveries'}
          </Anchor>
        )}
      </Group>
      {lastError && (
        <Text size="sm" c="dimmed">
          Last error: {lastError}
        </Text>
      )}
    </Stack>
  );
}

/** SIEM destinations whose circuit is open or whose deliveries failed. */
export default function SiemAttention() {
  const destinations = useQuery({
    queryKey: ['overview', 'siem'],
    queryFn: () => call(api.GET('/api/audit/siem/destinations', { params: { query: { limit: 100 } } })),
  });
  return (
    <Section title="SIEM export">
      <QueryView query={destinations}>
        {({ data }) => {
          const troubled = data.filter(needsAttention);
          if (data.length === 0)
            return (
              <EmptyNotice
                title="No SIEM destination"
                description="The audit trail is not exported yet. Add a destination under Audit to send it to your SIEM."
              />
            );
          if (troubled.length === 0)
            return <Text c="dimmed">All {data.length} destinations deliver normally.</Text>;
          return (
            <Stack gap="sm">
              {troubled.map((destination) => (
                <DestinationTrouble key={destination.id} destination={destination} />
              ))}
            </Stack>
          );
        }}
      </QueryView>
    </Section>
  );
}
