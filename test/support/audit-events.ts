import { and, asc, eq } from 'drizzle-orm';
import { auditEvents } from '../../src/db/schema/index.js';
import type { TestGateway } from './gateway.js';

/** The audit events about one target, in the order they were recorded (a table has no order of its own). */
export function auditEventsAbout(gateway: TestGateway, targetId: string) {
  return auditEventsMatching(gateway, { targetId });
}

/** The audit events whose given fields all equal the given values, in the order they were recorded. */
export function auditEventsMatching(
  gateway: TestGateway,
  fields: Partial<Record<'action' | 'actorId' | 'targetId', string>>,
) {
  const conditions = Object.entries(fields).map(([field, value]) =>
    eq(auditEvents[field as keyof typeof fields], value),
  );
  return gateway.deps.db
    .select()
    .from(auditEvents)
    .where(and(...conditions))
    .orderBy(asc(auditEvents.entry));
}
