import { asc, count, eq } from 'drizzle-orm';
import type { Deps } from '../../core/deps.js';
import { DEFAULT_WITHIN_DAYS, NOTIFICATION_EVENT_SPECS } from '../../core/notification-events.js';
import { fetchPage, type PageRequest } from '../../core/pagination.js';
import { NOTIFICATION_EVENTS, notificationConditions } from '../../db/schema/index.js';
import { consolePathOf, title } from './messages.js';
import type { Alert, EventKind } from './schemas.js';

/** What can be notified (the event catalog) and what is wrong right now (open alerts). */
export class NotificationEventService {
  constructor(private readonly deps: Pick<Deps, 'db'>) {}

  catalog(): EventKind[] {
    return NOTIFICATION_EVENTS.map((kind) => {
      const spec = NOTIFICATION_EVENT_SPECS[kind];
      return {
        kind,
        mode: spec.mode,
        description: spec.description,
        filters: [...spec.filters],
        okStates: [...spec.okStates],
        defaultWithinDays: spec.mode === 'deadline' ? [...DEFAULT_WITHIN_DAYS] : null,
      };
    });
  }

  /** Conditions in a bad state now (an offline health check, an expired certificate …), oldest first. */
  alerts(page: PageRequest) {
    const open = eq(notificationConditions.ok, false);
    return fetchPage(
      page,
      ({ limit, offset }) =>
        this.deps.db
          .select()
          .from(notificationConditions)
          .where(open)
          .orderBy(asc(notificationConditions.since), asc(notificationConditions.resourceId))
          .limit(limit)
          .offset(offset),
      this.deps.db.select({ value: count() }).from(notificationConditions).where(open),
      (row): Alert => ({
        event: row.kind,
        resource: row.payload.resource,
        state: row.state,
        since: row.since,
        summary: title(row.payload),
        consolePath: consolePathOf(row.payload),
        details: row.payload.details,
      }),
    );
  }
}
