/**
 * Addresses of the web console's pages that are linked to from outside their area: the gateway's
 * notification messages and open alerts, and the console's own overview. Both sides build them here,
 * so a page that moves changes in one place; test/console/notification-links.single.test.ts opens
 * every kind a message links to and checks the page that answers.
 */

/** The audit trail's event filters as the Audit page keeps them in its address (`/audit?action=…`). */
export const AUDIT_EVENT_FILTERS = [
  'actor',
  'action',
  'targetType',
  'targetId',
  'outcome',
  'from',
  'to',
] as const;
export type AuditEventFilter = (typeof AUDIT_EVENT_FILTERS)[number];

/** The SIEM deliveries' filters as the Audit page keeps them in its address. */
export const SIEM_DELIVERY_FILTERS = ['status', 'destinationId'] as const;
export type SiemDeliveryFilter = (typeof SIEM_DELIVERY_FILTERS)[number];

const segment = encodeURIComponent;

/** `path?name=value…` with only the filters that are set. */
function withQuery(path: string, filters: Partial<Record<string, string>>): string {
  const query = new URLSearchParams(
    Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1])),
  ).toString();
  return query ? `${path}?${query}` : path;
}

export const consolePages = {
  certificate: (id: string) => `/certificates/${segment(id)}`,
  /** A container's health-check tab. */
  containerHealth: (nodeId: string, containerName: string) =>
    `/containers/${segment(nodeId)}/containers/${segment(containerName)}/health`,
  containers: () => '/containers',
  /** The audit events, filtered; also where the hash chain is verified. */
  auditEvents: (filters: Partial<Record<AuditEventFilter, string>> = {}) => withQuery('/audit', filters),
  /** The SIEM destinations with their health and circuit. */
  siemDestinations: () => '/audit/destinations',
  siemDeliveries: (filters: Partial<Record<SiemDeliveryFilter, string>> = {}) =>
    withQuery('/audit/deliveries', filters),
  repohostConnector: (id: string) => `/integrations/repohost/${segment(id)}`,
  notifications: () => '/notifications',
  node: (id: string) => `/nodes/${segment(id)}`,
  /** A logging environment's records, with the search parameters of the records API. */
  logRecords: (environmentId: string, searchParams: string) =>
    `/logging/environments/${segment(environmentId)}${searchParams ? `?${searchParams}` : ''}`,
};
