import type { Command } from 'commander';
import {
  NOTIFICATION_CHANNEL_KINDS,
  NOTIFICATION_DELIVERY_STATUSES,
  NOTIFICATION_EVENTS,
} from '../../db/schema/notifications.js';
import { apiAction } from '../api-command.js';
import { CliError } from '../cli-error.js';
import { readTextArgument } from '../fields.js';
import {
  bool,
  commaList,
  type Flag,
  fileText,
  idFlag,
  integer,
  list,
  stdinSecret,
  text,
  whole,
} from '../flags.js';
import {
  actionCommand,
  crudCommands,
  idOf,
  lsCommand,
  recordParams,
  resource,
  resourceCommand,
} from '../resource.js';
import { certificates } from './certificates.js';
import { hosts } from './container-hosts.js';
import { connectors } from './repohost.js';
import { destinations } from './siem.js';

/** Notifications: channels (webhook, Slack, email), the rules that send events to them, and deliveries. */
const channels = resource({ noun: 'channel', list: '/api/notifications/channels', id: 'id' });
const rules = resource({ noun: 'rule', list: '/api/notifications/rules', id: 'id' });
const deliveries = resource({
  noun: 'delivery',
  plural: 'deliveries',
  list: '/api/notifications/deliveries',
  id: 'id',
  lookup: 'as-is',
});

const oneOf = (values: readonly string[]) => values.join(', ');

/** `Name: value` lines (blank lines and `#` comments skipped), so header values stay off the command line. */
const headersFile: Flag<'headers'> = {
  flags: '--headers-file <file>',
  field: 'headers',
  description:
    'webhook: request headers as "Name: value" lines (- for standard input); values are write-only',
  parse: async (file: string) => {
    const headers: Record<string, string> = {};
    const lines = (await readTextArgument(file, '--headers-file')).split(/\r?\n/);
    lines.forEach((line, index) => {
      if (!line.trim() || line.trimStart().startsWith('#')) return;
      const colon = line.indexOf(':');
      if (colon <= 0) throw new CliError(`--headers-file line ${index + 1} is not "Name: value"`);
      headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
    });
    return headers;
  },
};

const channelSettings = (creating: boolean) => [
  text('--name <name>', 'name', 'unique name', creating),
  bool('enabled', 'enabled', 'send new notifications through this channel'),
  text('--webhook-url <url>', 'url', 'webhook: where events are posted'),
  stdinSecret(
    'slack-url-stdin',
    'url',
    'slack: read the incoming-webhook URL (a credential) from standard input',
  ),
  stdinSecret(
    'secret-stdin',
    'secret',
    'webhook: read the HMAC signing secret (16+ characters) from standard input',
  ),
  headersFile,
  text('--smtp-host <host>', 'smtp.host', 'email: SMTP server'),
  whole('--smtp-port <port>', 'smtp.port', 'email: SMTP port (default 465 with --smtp-secure, else 587)'),
  bool('smtp-secure', 'smtp.secure', 'email: TLS from the first byte'),
  text(
    '--starttls <mode>',
    'smtp.starttls',
    'email without --smtp-secure: required (default), opportunistic or off',
  ),
  text('--smtp-username <name>', 'smtp.username', 'email: SMTP login'),
  stdinSecret('smtp-password-stdin', 'smtp.password', 'email: read the SMTP password from standard input'),
  fileText('--smtp-ca-file <file>', 'smtp.caPem', 'email: PEM CA(s) to trust for the SMTP server'),
  text('--from <address>', 'from', 'email: sender address'),
  list('--to <a,b>', 'to', 'email: recipients, comma-separated'),
];

const channelRefs: Flag<'channelIds'> = {
  flags: '--channel <channel>',
  field: 'channelIds',
  description: 'a channel to send to (name or id; the list replaces the old one on update)',
  repeatable: true,
  parse: (refs: string[], context) => Promise.all(refs.map((ref) => idOf(channels, context, ref))),
};

/** A number list or a number where `none` clears the field (the API's null). */
const clearable = <Field extends string>(
  flags: string,
  field: Field,
  description: string,
  parse: (value: string) => unknown,
): Flag<Field> => ({
  flags,
  field,
  description: `${description} (none: clear it)`,
  parse: (value: string) => (value === 'none' ? null : parse(value)),
});

const ruleSettings = (creating: boolean) => [
  text('--name <name>', 'name', 'unique name', creating),
  text('--event <event>', 'event', `what to notify: ${oneOf(NOTIFICATION_EVENTS)}`, creating),
  channelRefs,
  bool('enabled', 'enabled', 'send notifications for this rule'),
  idFlag('--host <host>', 'filters.nodeId', 'only this container host (name or id)', (context, ref) =>
    idOf(hosts, context, ref),
  ),
  text('--container <name>', 'filters.containerName', 'only this container (health checks)'),
  idFlag(
    '--destination <destination>',
    'filters.destinationId',
    'only this SIEM destination',
    (context, ref) => idOf(destinations, context, ref),
  ),
  idFlag('--certificate <certificate>', 'filters.certificateId', 'only this certificate', (context, ref) =>
    idOf(certificates, context, ref),
  ),
  idFlag(
    '--connector <connector>',
    'filters.connectorId',
    'only this repository-host connector',
    (context, ref) => idOf(connectors, context, ref),
  ),
  clearable(
    '--within-days <d,d>',
    'withinDays',
    'deadline events: days before expiry to notify at',
    (value) => commaList(value).map((day) => integer(day, '--within-days')),
  ),
  clearable(
    '--renotify-minutes <n>',
    'renotifyMinutes',
    'condition events: remind this often while it lasts',
    (value) => integer(value, '--renotify-minutes'),
  ),
];

function registerChannels(area: Command): void {
  const sub = area
    .command('channels')
    .description('where notifications go: webhook, Slack-compatible, email');
  crudCommands(sub, channels, {
    list: {
      columns: ['name', 'kind', 'enabled', 'urlOrigin', 'to', 'id'],
      filters: [
        text('--kind <kind>', 'kind', oneOf(NOTIFICATION_CHANNEL_KINDS)),
        text('--q <text>', 'q', 'substring of the name'),
      ],
    },
    create: {
      flags: [
        ...channelSettings(true).slice(0, 1),
        text('--kind <kind>', 'kind', oneOf(NOTIFICATION_CHANNEL_KINDS), true),
        ...channelSettings(true).slice(1),
      ],
      description:
        'create a channel (its secrets, header values, Slack URL and SMTP password are write-only)',
    },
    update: {
      flags: channelSettings(false),
      description: 'change a channel (-F secret=null removes the secret)',
    },
  });
  apiAction(
    resourceCommand(sub, channels, 'test <channel>', 'send a test message now; exit 1 when the send failed'),
    async (context) => {
      const { data: result } = await context.api.call('POST', '/api/notifications/channels/{id}/test', {
        path: await recordParams(channels, context, context.args[0]),
      });
      context.out.done(
        result,
        result.ok ? `test message sent to ${context.args[0]}` : `test send failed: ${result.error}`,
      );
      if (!result.ok) process.exitCode = 1;
    },
  );
}

function registerRules(area: Command): void {
  const sub = area.command('rules').description('which events go to which channels');
  crudCommands(sub, rules, {
    list: {
      columns: ['name', 'event', 'enabled', 'channelIds', 'filters', 'id'],
      filters: [
        text('--event <event>', 'event', 'only rules for this event'),
        text('--q <text>', 'q', 'substring of the name'),
      ],
    },
    create: { flags: ruleSettings(true) },
    update: { flags: ruleSettings(false), description: 'change a rule (-F filters=null clears its filters)' },
  });
}

function registerDeliveries(area: Command): void {
  const sub = area.command('deliveries').description('notifications sent or to be sent, with their attempts');
  lsCommand(sub, deliveries, {
    columns: ['createdAt', 'status', 'event', 'summary', 'attempts', 'lastError', 'id'],
    description: 'list deliveries, newest first',
    filters: [
      text('--status <status>', 'status', oneOf(NOTIFICATION_DELIVERY_STATUSES)),
      idFlag('--channel <channel>', 'channelId', 'only to this channel (name or id)', (context, ref) =>
        idOf(channels, context, ref),
      ),
      idFlag('--rule <rule>', 'ruleId', 'only for this rule (name or id)', (context, ref) =>
        idOf(rules, context, ref),
      ),
      text('--event <event>', 'event', 'only this event'),
    ],
  });
  apiAction(
    resourceCommand(sub, deliveries, 'get <delivery>', 'show a delivery, its payload and every attempt'),
    async (context) => {
      const { data: delivery } = await context.api.call('GET', '/api/notifications/deliveries/{id}', {
        path: await recordParams(deliveries, context, context.args[0]),
      });
      if (context.out.json) return context.out.record(delivery);
      const { attemptLog, ...record } = delivery;
      context.out.record(record);
      context.out.line('\nattempts:');
      context.out.list(attemptLog, ['attempt', 'outcome', 'startedAt', 'finishedAt', 'httpStatus', 'error']);
    },
  );
  actionCommand(sub, deliveries, {
    name: 'requeue',
    path: '/requeue',
    description: 'send a failed delivery again, with a fresh set of attempts',
  });
}

export function registerNotifications(program: Command): void {
  const area = program
    .command('notifications')
    .description('alert rules, channels and deliveries (notifications:view|manage)');
  registerChannels(area);
  registerRules(area);
  registerDeliveries(area);
  lsCommand(area, resource({ noun: 'alert', list: '/api/notifications/alerts' }), {
    name: 'alerts',
    columns: ['since', 'event', 'resource.name', 'state', 'summary'],
    description: 'open alerts: watched conditions in a bad state now, oldest first',
  });
  lsCommand(area, resource({ noun: 'event', list: '/api/notifications/events' }), {
    name: 'events',
    columns: ['kind', 'mode', 'filters', 'okStates', 'description'],
    unpaginated: true,
    description: 'the events rules can send, with their filters and normal states',
  });
}
