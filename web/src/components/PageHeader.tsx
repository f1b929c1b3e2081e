import { Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The top of an area page: its title (the page's one h1), a line on what it is for, its main action. */
export function PageHeader({
  title,
  description,
  action,
}: {
  title: string;
  description?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <Group justify="space-between" align="flex-end" mb="md" gap="sm">
      <div>
        <Title order={1}>{title}</Title>
        {description && <Text c="dimmed">{description}</Text>}
      </div>
      {action}
    </Group>
  );
}
