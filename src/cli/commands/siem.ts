import type { Command } from 'commander';
import { bool, fileText, idFlag, stdinSecret, text, whole } from '../flags.js';
import { actionCommand, crudCommands, getCommand, idOf, lsCommand, resource } from '../resource.js';

/** SIEM export of the audit trail: destinations and the deliveries (batches) sent to them. */
export const destinations = resource({
  noun: 'destination',
  list: '/api/audit/siem/destinations',
  id: 'id',
  lookup: { by: 'name' },
});
const deliveries = resource({
  noun: 'delivery',
  plural: 'deliveries',
  list: '/api/audit/siem/deliveries',
  id: 'id',
  lookup: 'as-is',
});

const settings = [
  text('--name <name>', 'name', 'unique name'),
  bool('enabled', 'enabled', 'send to this destination'),
  text('--endpoint <url>', 'url', 'webhook or Splunk HEC URL'),
  stdinSecret('secret-stdin', 'secret', 'read the webhook HMAC secret (16+ characters) from standard input'),
  stdinSecret('hec-token-stdin', 'token', 'read the Splunk HEC token from standard input'),
  text('--index <index>', 'index', 'Splunk index'),
  text('--sourcetype <sourcetype>', 'sourcetype', 'Splunk sourcetype (default infragate:audit)'),
  text('--source <source>', 'source', 'Splunk source (default infragate)'),
  text('--syslog-host <host>', 'host', 'syslog server host'),
  whole('--port <port>', 'port', 'syslog server port'),
  bool('tls', 'tls', 'syslog over TLS'),
  fileText('--ca-file <file>', 'caPem', 'PEM CA(s) to trust for syslog over TLS'),
  whole('--facility <n>', 'facility', 'syslog facility 0-23 (default 13)'),
  text('--app-name <name>', 'appName', 'syslog APP-NAME (default infragate)'),
  whole('--batch-size <n>', 'batchSize', 'events per delivery (1-10000)'),
  whole('--flush-interval-ms <ms>', 'flushIntervalMs', 'longest wait before a partial batch is sent'),
  whole('--max-attempts <n>', 'maxAttempts', 'attempts before a delivery fails (1-100)'),
];

export function registerSiem(program: Command): void {
  const area = program.command('siem').description('export of the audit trail to SIEMs (audit:view|manage)');
  const sub = area.command('destinations').description('webhook, Splunk HEC and syslog destinations');
  crudCommands(sub, destinations, {
    list: {
      columns: ['name', 'kind', 'enabled', 'health.status', 'cursorSeq', 'id'],
      filters: [
        text('--kind <kind>', 'kind', 'webhook, splunk_hec or syslog'),
        bool('enabled', 'enabled', 'only enabled ones'),
      ],
    },
    create: {
      flags: [
        { ...settings[0]!, required: true },
        text('--kind <kind>', 'kind', 'webhook, splunk_hec or syslog', true),
        text('--start-from <where>', 'startFrom', 'now (default) or beginning'),
        ...settings.slice(1),
      ],
    },
    update: {
      flags: settings,
      description: 'change a destination (a secret or token rotates it)',
    },
  });
  actionCommand(sub, destinations, {
    name: 'test',
    path: '/test',
    description: 'send one synthetic event now',
  });

  const deliverySub = area.command('deliveries').description('batches of events and their delivery state');
  lsCommand(deliverySub, deliveries, {
    columns: ['createdAt', 'status', 'eventCount', 'attempts', 'lastError', 'id'],
    filters: [
      idFlag(
        '--destination <destination>',
        'destinationId',
        'only deliveries to this destination (name or id)',
        (context, ref) => idOf(destinations, context, ref),
      ),
      text(
        '--status <status>',
        'status',
        'queued, delivering, retrying, delivered, failed, paused or discarded',
      ),
    ],
  });
  getCommand(deliverySub, deliveries);
  actionCommand(deliverySub, deliveries, {
    name: 'requeue',
    path: '/requeue',
    description: 'send a failed delivery again',
    fromArgs: () => ({}),
  });
}
