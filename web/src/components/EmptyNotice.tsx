import { EmptyState } from '@mantine/core';
import type { ReactNode } from 'react';

/** An empty list says what it would hold and what to do next (the action, when there is one). */
export function EmptyNotice({
  title,
  description,
  action,
}: {
  title: string;
  description: ReactNode;
  action?: ReactNode;
}) {
  return (
    <EmptyState title={title} description={description} py="xl">
      {action && <EmptyState.Actions>{action}</EmptyState.Actions>}
    </EmptyState>
  );
}
