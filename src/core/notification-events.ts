import type { NotificationEventKind, NotificationFilterKey } from '../db/schema/index.js';

/**
 * How the outbox decides what to notify for an event kind:
 * - `condition`: the producer reports a state every time it observes one; the outbox notifies when the
 *   state changes (into a bad state, between bad states, and back to a normal one: the recovery), and
 *   the sweep sends reminders while a bad state lasts, per rule `renotifyMinutes`.
 * - `deadline`: the producer reports when something expires; each rule notifies once per threshold of
 *   its `withinDays` that is crossed (and once when the deadline has passed).
 * - `occurrence`: each event is notified once; the producer may give a key that makes repeats the same.
 */
export const NOTIFICATION_MODES = ['condition', 'deadline', 'occurrence'] as const;
export type NotificationMode = (typeof NOTIFICATION_MODES)[number];

export interface NotificationEventSpec {
  mode: NotificationMode;
  description: string;
  /** condition: the states that mean all is well. */
  okStates: readonly string[];
  /** The rule filters that apply to this event (producers attach them as labels). */
  filters: readonly NotificationFilterKey[];
}

/** Thresholds of a deadline rule that gives none, in days. */
export const DEFAULT_WITHIN_DAYS = [30, 14, 7, 1] as const;

export const NOTIFICATION_EVENT_SPECS: Record<NotificationEventKind, NotificationEventSpec> = {
  'containerhost.health_check.changed': {
    mode: 'condition',
    description:
      'A saved container health check changed status (online, degraded, offline), recovery included',
    okStates: ['online', 'disabled'],
    filters: ['nodeId', 'containerName'],
  },
  'certificates.expiring': {
    mode: 'deadline',
    description: 'An SSL certificate expires within one of the rule’s thresholds (withinDays)',
    okStates: [],
    filters: ['certificateId'],
  },
  'certificates.expired': {
    mode: 'condition',
    description: 'An SSL certificate has expired (and, as a recovery, was replaced by a valid one)',
    okStates: ['valid'],
    filters: ['certificateId'],
  },
  'siem.destination.circuit_opened': {
    mode: 'condition',
    description: 'A SIEM destination failed repeatedly and its circuit opened (and, as a recovery, closed)',
    okStates: ['closed'],
    filters: ['destinationId'],
  },
  'siem.delivery.failed': {
    mode: 'occurrence',
    description: 'A SIEM delivery used up its attempts and is failed',
    okStates: [],
    filters: ['destinationId'],
  },
  'repohost.token.expiring': {
    mode: 'deadline',
    description: 'A repository-host connector’s access token expires within one of the rule’s thresholds',
    okStates: [],
    filters: ['connectorId'],
  },
  'auth.login.throttled': {
    mode: 'occurrence',
    description: 'An account or a client address reached the failed-login limit and is locked for a while',
    okStates: [],
    filters: [],
  },
  'audit.chain.broken': {
    mode: 'condition',
    description:
      'The periodic verification of the audit hash chain found a broken link (and, as a recovery, an intact chain)',
    okStates: ['intact'],
    filters: [],
  },
  'nodes.node.offline': {
    mode: 'condition',
    description:
      'An agent node’s tunnel went down (offline) and, as the recovery, came back (online); revoked nodes report neither',
    okStates: ['online'],
    filters: ['nodeId'],
  },
  'logging.query.threshold': {
    mode: 'condition',
    description:
      'The records of a logging environment matching the rule’s query in its window went above or below its count (and, as a recovery, back)',
    okStates: ['ok'],
    filters: [],
  },
};
