import { consolePages } from '../../../../src/core/console-pages';
import type { AuditEvent } from './queries';

/** The record an audit event is about, by name, and the page that shows it (when it still exists). */
export interface AuditTarget {
  name: string;
  href?: string;
}

/** Where each kind of record is shown; a kind not named here is shown without a link. */
const PAGES: Record<string, (id: string, metadata: Record<string, unknown>) => string> = {
  user: (_id, metadata) =>
    typeof metadata.email === 'string' ? `/users?q=${encodeURIComponent(metadata.email)}` : '/users',
  group: () => '/users/groups',
  identity_provider: () => '/users/identity-providers',
  ssl_certificate: (id) => consolePages.certificate(id),
  database: (id) => `/databases/${encodeURIComponent(id)}`,
  containerhost_node: (id) => `/containers/${encodeURIComponent(id)}`,
  node: (id) => `/nodes/${encodeURIComponent(id)}`,
  pages_project: (id) => `/pages/${encodeURIComponent(id)}`,
  repohost_connector: (id) => consolePages.repohostConnector(id),
  siem_destination: () => consolePages.siemDestinations(),
  siem_delivery: () => consolePages.siemDeliveries(),
  notification_channel: () => '/notifications',
  notification_rule: () => '/notifications/rules',
  notification_delivery: (id) => `/notifications/deliveries/${encodeURIComponent(id)}`,
  inference_connection: () => '/inference',
  environment: (id) => `/logging/environments/${encodeURIComponent(id)}`,
};

/** The metadata fields that name a record, in the order they are tried (a user's email is unique, its name not). */
const NAME_FIELDS = ['email', 'name', 'slug', 'hostname', 'title'];

/** `ssl_certificate` → `ssl certificate`. */
const kindInWords = (kind: string) => kind.replaceAll('_', ' ');

/**
 * The target of an event in words: the record's name as the event recorded it (so a deleted record
 * keeps its name), else its kind and the start of its id; linked to its page unless the event
 * deleted it.
 */
export function auditTarget(
  event: Pick<AuditEvent, 'targetType' | 'targetId' | 'action' | 'metadata'>,
): AuditTarget | undefined {
  if (!event.targetType) return undefined;
  const metadata = (event.metadata ?? {}) as Record<string, unknown>;
  const named = NAME_FIELDS.map((field) => metadata[field]).find(
    (value): value is string => typeof value === 'string' && value.length > 0,
  );
  const id = event.targetId ?? '';
  const name = named ?? `${kindInWords(event.targetType)} ${id.slice(0, 8)}`.trim();
  const page = PAGES[event.targetType];
  const gone = event.action.endsWith('.deleted');
  return page && id && !gone ? { name, href: page(id, metadata) } : { name };
}
