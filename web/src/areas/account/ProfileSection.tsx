import { Badge, Group, SimpleGrid, Text } from '@mantine/core';
import { useCurrentUser } from '../../auth/session';
import { Section } from '../../components/Section';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text component="div">{children}</Text>
    </div>
  );
}

/** Who I am and what my group lets me do. */
export function ProfileSection() {
  const user = useCurrentUser();
  return (
    <Section title="Profile">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Field label="Name">{user.name}</Field>
        <Field label="Email">{user.email}</Field>
        <Field label="Group">{user.groupName}</Field>
      </SimpleGrid>
      <Field label="Scopes">
        {user.scopes.length === 0 ? (
          'None: your group grants no area yet.'
        ) : (
          <Group gap={6} mt={4}>
            {user.scopes.map((scope) => (
              <Badge key={scope} variant="light" tt="none">
                {scope}
              </Badge>
            ))}
          </Group>
        )}
      </Field>
    </Section>
  );
}
