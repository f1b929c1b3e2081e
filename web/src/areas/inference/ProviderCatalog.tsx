import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { QueryView } from '../../components/QueryView';
import { AUTH_TYPE_LABELS, type Provider, useCatalog } from './queries';

function ProviderCard({ provider, onConnect }: { provider: Provider; onConnect?: () => void }) {
  return (
    <Card withBorder padding="md" component="article" aria-label={provider.label}>
      <Stack gap="xs" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Title order={3} size="h5">
            {provider.label}
          </Title>
          {provider.featured && <Badge variant="light">Featured</Badge>}
        </Group>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {provider.baseUrl}
        </Text>
        <Group gap={4}>
          <Badge variant="light" color="gray" tt="none">
            {provider.family}
          </Badge>
          <Badge variant="light" color="gray" tt="none">
            {provider.wireProtocol}
          </Badge>
          {provider.subscription && (
            <Badge variant="light" color="grape" tt="none">
              subscription
            </Badge>
          )}
        </Group>
        <Text size="sm">
          Connect with: {provider.authTypes.map((type) => AUTH_TYPE_LABELS[type]).join(', ')}
          {provider.oauthFlow === 'device' && ' (a code you enter on the provider’s page)'}
        </Text>
        {onConnect && (
          <Group justify="flex-end" mt="auto">
            <Button size="xs" onClick={onConnect} aria-label={`Connect to ${provider.label}`}>
              Connect
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

/** The providers the gateway knows, as cards, featured first; each offers to connect. */
export function ProviderCatalog({ onConnect }: { onConnect?: (provider: Provider) => void }) {
  const catalog = useCatalog();
  return (
    <QueryView query={catalog}>
      {(providers) => (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {[...providers]
            .sort((a, b) => Number(b.featured) - Number(a.featured))
            .map((provider) => (
              <ProviderCard
                key={provider.id}
                provider={provider}
                {...(onConnect ? { onConnect: () => onConnect(provider) } : {})}
              />
            ))}
        </SimpleGrid>
      )}
    </QueryView>
  );
}
