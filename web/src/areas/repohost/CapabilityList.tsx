import { Badge, Group, SimpleGrid, Text } from '@mantine/core';

// In the order the API lists them (src/modules/repohost/schemas.ts CAPABILITIES).
const LABELS: Record<string, string> = {
  apiReachable: 'API reachable',
  tokenSelf: 'Token details readable',
  projectsView: 'List projects',
  groupsView: 'List groups',
  repoRead: 'Read repositories',
  repoWrite: 'Write repositories',
  ciView: 'See CI jobs',
  pipelineRead: 'Read pipelines',
  registryView: 'See the container registry',
  webhooksManage: 'Manage webhooks',
};

/** What a token can do on the host, each capability with a plain yes or no. */
export function CapabilityList({ capabilities }: { capabilities: Record<string, boolean> }) {
  // A saved connector's capabilities come back in any order: show them in the API's.
  const names = [
    ...Object.keys(LABELS).filter((name) => name in capabilities),
    ...Object.keys(capabilities).filter((name) => !(name in LABELS)),
  ];
  return (
    <SimpleGrid
      cols={{ base: 1, sm: 2 }}
      spacing={4}
      verticalSpacing={4}
      role="list"
      aria-label="Capabilities"
    >
      {names.map((name) => (
        <Group key={name} gap="xs" wrap="nowrap" role="listitem">
          <Badge
            color={capabilities[name] ? 'green' : 'gray'}
            variant={capabilities[name] ? 'filled' : 'light'}
            miw={52}
          >
            {capabilities[name] ? 'yes' : 'no'}
          </Badge>
          <Text size="sm">{LABELS[name] ?? name}</Text>
        </Group>
      ))}
    </SimpleGrid>
  );
}
