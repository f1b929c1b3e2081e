import type { AuditAction } from '../../core/audit-actions.js';
import { consolePages } from '../../core/console-pages.js';
import { NOTIFICATION_EVENT_SPECS } from '../../core/notification-events.js';
import type { NotificationPayload } from '../../db/schema/index.js';

/** A notification in the forms the channels send: a title, labelled lines, text, HTML and a link. */
export interface Message {
  title: string;
  lines: [label: string, value: string][];
  /** The console page of the resource. */
  link: string;
  text: string;
  html: string;
}

const days = (count: number) => `${count} day${Math.abs(count) === 1 ? '' : 's'}`;

function expiryPhrase(payload: NotificationPayload): string {
  const left = payload.daysLeft ?? 0;
  if (left < 0) return `expired ${days(-left)} ago`;
  return left === 0 ? 'expires within a day' : `expires in ${days(left)}`;
}

/** What happened, in one line a person reads first (subject, first line of a chat message). */
function headline(payload: NotificationPayload): string {
  const { name } = payload.resource;
  const state = payload.state ?? '';
  switch (payload.kind) {
    case 'containerhost.health_check.changed':
      return payload.recovered
        ? `Health check of ${name} recovered: ${state} (was ${payload.previousState})`
        : `Health check of ${name} is ${payload.reminder > 0 ? 'still ' : ''}${state}`;
    case 'certificates.expiring':
      return `Certificate ${name} ${expiryPhrase(payload)}`;
    case 'certificates.expired':
      return payload.recovered ? `Certificate ${name} is valid again` : `Certificate ${name} has expired`;
    case 'siem.destination.circuit_opened':
      return payload.recovered
        ? `SIEM destination ${name} is delivering again: its circuit closed`
        : `SIEM destination ${name} keeps failing: its circuit opened`;
    case 'siem.delivery.failed':
      return `A delivery to SIEM destination ${name} failed after its last attempt`;
    case 'repohost.token.expiring':
      return `The access token of repository host ${name} ${expiryPhrase(payload)}`;
    case 'auth.login.throttled':
      return `Logins for ${name} are locked after too many failures`;
    case 'audit.chain.broken':
      return payload.recovered ? 'The audit trail verifies again' : 'The audit trail’s hash chain is broken';
    case 'nodes.node.offline':
      return payload.recovered
        ? `Node ${name} is online again: its agent reconnected`
        : `Node ${name} is ${payload.reminder > 0 ? 'still ' : ''}offline: its agent’s tunnel is down`;
    case 'logging.query.threshold': {
      const { count, windowMinutes } = payload.details as { count?: number; windowMinutes?: number };
      const seen = `${count} records in the last ${windowMinutes} minutes`;
      return payload.recovered
        ? `Log alert ${name} resolved: ${seen}`
        : `Log alert ${name} ${payload.reminder > 0 ? 'still holds' : 'fired'}: ${seen}`;
    }
  }
}

export function title(payload: NotificationPayload): string {
  const line = headline(payload);
  return payload.reminder > 0 ? `Reminder: ${line}` : line;
}

/**
 * The console page of a notification's resource (a path below the console's address), by resource
 * type; the labels carry the parent ids a page needs. Messages link to it and open alerts show it.
 */
export function consolePathOf(payload: Pick<NotificationPayload, 'resource' | 'labels' | 'details'>): string {
  const { type, id, name } = payload.resource;
  const { nodeId, containerName, destinationId } = payload.labels;
  switch (type) {
    case 'ssl_certificate':
      return consolePages.certificate(id);
    case 'containerhost_health_check':
      return nodeId && containerName
        ? consolePages.containerHealth(nodeId, containerName)
        : consolePages.containers();
    case 'siem_destination':
      return consolePages.siemDestinations();
    case 'siem_delivery':
      return consolePages.siemDeliveries({ destinationId });
    case 'repohost_connector':
      return consolePages.repohostConnector(id);
    case 'audit_chain':
      return consolePages.auditEvents();
    case 'node':
      return consolePages.node(id);
    case 'log_query': {
      // The rule's search over the window it counted, on the environment's records page.
      const { environmentId, searchParams } = payload.details as {
        environmentId?: string;
        searchParams?: string;
      };
      return environmentId
        ? consolePages.logRecords(environmentId, searchParams ?? '')
        : consolePages.notifications();
    }
    case 'login':
      // A locked account's failures carry its email as the actor; a locked address's are every actor's.
      return consolePages.auditEvents({
        action: 'auth.login.failed' satisfies AuditAction,
        actor: payload.details.subject === 'account' ? name : undefined,
      });
    default:
      return consolePages.notifications();
  }
}

function shown(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function lines(payload: NotificationPayload): [string, string][] {
  const { resource } = payload;
  const result: [string, string][] = [
    ['Event', `${payload.kind}: ${NOTIFICATION_EVENT_SPECS[payload.kind].description}`],
    ['Resource', `${resource.type} ${resource.name} (${resource.id})`],
    ['When', payload.occurredAt],
  ];
  if (payload.state !== null)
    result.push([
      'State',
      payload.previousState === null ? payload.state : `${payload.previousState} → ${payload.state}`,
    ]);
  if (payload.reminder > 0) result.push(['Reminder', `#${payload.reminder}, the condition still lasts`]);
  if (payload.deadline !== null) result.push(['Deadline', payload.deadline]);
  if (payload.threshold !== null) result.push(['Threshold', `within ${days(payload.threshold)}`]);
  for (const [key, value] of Object.entries(payload.details)) {
    if (value !== undefined && value !== null) result.push([key, shown(value)]);
  }
  if (payload.rule) result.push(['Rule', payload.rule.name]);
  return result;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );

/** Plain text and a small HTML document from a title, lines and a link. */
export function compose(heading: string, rows: [string, string][], link: string): Message {
  const text = [heading, '', ...rows.map(([label, value]) => `${label}: ${value}`), '', `Open: ${link}`].join(
    '\n',
  );
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif">',
    `<h2>${escapeHtml(heading)}</h2>`,
    '<table cellpadding="4">',
    ...rows.map(
      ([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
    ),
    '</table>',
    `<p><a href="${escapeHtml(link)}">Open in infragate</a></p>`,
    '</body></html>',
  ].join('\n');
  return { title: heading, lines: rows, link, text, html };
}

/** The message of a notification; `publicUrl` is where the console is reached (no trailing slash). */
export function renderMessage(payload: NotificationPayload, publicUrl: string): Message {
  return compose(title(payload), lines(payload), `${publicUrl}${consolePathOf(payload)}`);
}
