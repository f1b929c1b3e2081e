import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { auditTarget } from './audit-target';
import type { AuditEvent } from './queries';

/** The record an audit event is about, by name, as a link to its page while it exists. */
export function AuditTargetLink({ event }: { event: AuditEvent }) {
  const target = auditTarget(event);
  if (!target) return '—';
  const title = event.targetId ? `${event.targetType} ${event.targetId}` : undefined;
  return target.href ? (
    <Anchor component={Link} to={target.href} size="sm" title={title} style={{ overflowWrap: 'anywhere' }}>
      {target.name}
    </Anchor>
  ) : (
    <Text size="sm" title={title} style={{ overflowWrap: 'anywhere' }}>
      {target.name}
    </Text>
  );
}
