import { Badge, Group, Stack, Text } from '@mantine/core';
import { RelativeTime } from '../../components/RelativeTime';
import { acmeBadge, expiryBadge } from './certificate-status';
import type { Certificate } from './queries';

/** The expiry badge with the date it refers to. */
export function ExpiryCell({ certificate }: { certificate: Certificate }) {
  const badge = expiryBadge(certificate);
  return (
    <Stack gap={4} align="flex-start">
      <Badge color={badge.color} variant="light">
        {badge.label}
      </Badge>
      {certificate.notAfter && (
        <Text size="xs" c="dimmed">
          {certificate.expired ? 'expired' : 'until'} <RelativeTime value={certificate.notAfter} />
        </Text>
      )}
    </Stack>
  );
}

/** Uploaded, or ACME with where its order stands; a failure's reason and the next attempt. */
export function SourceCell({ certificate }: { certificate: Certificate }) {
  const badge = acmeBadge(certificate);
  return (
    <Stack gap={4} align="flex-start">
      <Group gap={6}>
        <Badge color="gray" variant="outline">
          {certificate.source === 'acme' ? 'ACME' : 'Uploaded'}
        </Badge>
        {badge && (
          <Badge color={badge.color} variant="light">
            {badge.label}
          </Badge>
        )}
      </Group>
      {certificate.lastError && (
        <Text size="xs" c="red" lineClamp={2} style={{ wordBreak: 'break-word' }}>
          {certificate.lastError}
        </Text>
      )}
      {certificate.status !== 'valid' && certificate.nextRenewalAt && (
        <Text size="xs" c="dimmed">
          next attempt <RelativeTime value={certificate.nextRenewalAt} />
        </Text>
      )}
    </Stack>
  );
}
