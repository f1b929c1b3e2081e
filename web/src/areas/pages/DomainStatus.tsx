import { Badge, Stack, Text } from '@mantine/core';
import { RelativeTime } from '../../components/RelativeTime';
import type { Domain } from './queries';

const STATUS: Record<Domain['status'], { label: string; color: string }> = {
  pending: { label: 'Not verified yet', color: 'yellow' },
  verified: { label: 'Verified', color: 'green' },
  failed: { label: 'Verification failed', color: 'red' },
};

/** Where the ownership proof stands, the last check's failure and when it was made. */
export function DomainStatus({ domain }: { domain: Domain }) {
  const status = STATUS[domain.status];
  return (
    <Stack gap={4} align="flex-start">
      <Badge color={status.color} variant="light">
        {status.label}
      </Badge>
      {domain.lastError && (
        <Text size="xs" c="red" style={{ overflowWrap: 'anywhere' }}>
          {domain.lastError}
        </Text>
      )}
      {domain.lastCheckedAt && (
        <Text size="xs" c="dimmed">
          checked <RelativeTime value={domain.lastCheckedAt} />
        </Text>
      )}
    </Stack>
  );
}
