import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import type { Preview } from './queries';

/** Who the token belongs to, its scopes and expiry, and the project the probes ran against. */
export function TokenFacts({
  facts,
}: {
  facts: Pick<Preview, 'tokenScopes' | 'tokenExpiresAt' | 'user'> & Partial<Pick<Preview, 'probedProject'>>;
}) {
  const { user, tokenScopes, tokenExpiresAt, probedProject } = facts;
  return (
    <Stack gap={4}>
      <Text size="sm">
        Token of{' '}
        {user ? (
          user.webUrl ? (
            <Anchor href={user.webUrl} target="_blank" rel="noreferrer">
              {user.name} (@{user.username})
            </Anchor>
          ) : (
            `${user.name} (@${user.username})`
          )
        ) : (
          'a user the token may not read'
        )}
        {tokenExpiresAt ? `, expires ${tokenExpiresAt}` : ', no expiry date'}
      </Text>
      <Group gap={4}>
        <Text size="sm">Scopes:</Text>
        {tokenScopes === null ? (
          <Text size="sm" c="dimmed">
            not reported by the host
          </Text>
        ) : (
          tokenScopes.map((scope) => (
            <Badge key={scope} variant="light" tt="none">
              {scope}
            </Badge>
          ))
        )}
      </Group>
      {probedProject !== undefined && (
        <Text size="sm" c="dimmed">
          {probedProject
            ? `Probed read-only on ${probedProject.fullPath}.`
            : 'The token sees no project, so nothing was probed.'}
        </Text>
      )}
    </Stack>
  );
}
