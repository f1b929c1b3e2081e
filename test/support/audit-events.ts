import { asc, eq } from 'drizzle-orm';
import { auditEvents } from '../../src/db/schema/index.js';
import type { TestGateway } from './gateway.js';

/** The audit events about one target, in the order they were recorded (a table has no order of its own). */
export function auditEventsAbout(gateway: TestGateway, targetId: string) {
  return gateway.deps.db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.targetId, targetId))
    .orderBy(asc(auditEvents.entry));
}
