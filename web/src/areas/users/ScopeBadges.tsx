import { Badge, Group } from '@mantine/core';
import { useResourceChoices } from './queries';
import { checkScope } from './scope-checks';

/** Scopes as badges, a resource scope naming its resource (`databases:read: orders-cache`), the exact scope on hover. */
export function ScopeBadges({ scopes }: { scopes: readonly string[] }) {
  const resources = useResourceChoices();
  return (
    <Group gap={4}>
      {scopes.map((scope) => (
        <Badge key={scope} variant="light" tt="none" title={scope}>
          {checkScope(scope, resources).label}
        </Badge>
      ))}
    </Group>
  );
}
