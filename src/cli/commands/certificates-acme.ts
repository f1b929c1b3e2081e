import type { Command } from 'commander';
import { ACME_CHALLENGE_TYPES, TSIG_ALGORITHMS } from '../../db/schema/certificates.js';
import type { CallAnswer } from '../api-client.js';
import { type ApiContext, apiAction } from '../api-command.js';
import { CliError } from '../cli-error.js';
import { addFlags, bodyFromFlags, type Flag, idFlag, integer, stdinSecret, text, whole } from '../flags.js';
import {
  type BodyField,
  createCommand,
  deleteCommand,
  getCommand,
  idOf,
  lsCommand,
  type Resource,
  recordParams,
  resource,
  resourceCommand,
} from '../resource.js';

/** ACME: ordering, confirming (manual dns-01) and renewing certificates, and the DNS providers for dns-01. */
const dnsProviders = resource({ noun: 'provider', list: '/api/ssl-certificates/dns-providers', id: 'id' });

type Certificate = CallAnswer<'/api/ssl-certificates/{id}', 'GET'>['data'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Still working: ordering or renewing, and not waiting for the operator's TXT records. */
const inProgress = (certificate: Certificate) =>
  (certificate.status === 'pending' || certificate.status === 'renewing') &&
  !certificate.acme?.awaitingConfirmation;

/** Reads the certificate once a second until the CA's work is done (or the operator's turn comes). */
async function waitFor(context: ApiContext, id: string, timeoutSeconds: number): Promise<Certificate> {
  const deadline = Date.now() + timeoutSeconds * 1000;
  for (;;) {
    const { data: certificate } = await context.api.call('GET', '/api/ssl-certificates/{id}', {
      path: { id },
    });
    if (!inProgress(certificate)) return certificate;
    if (Date.now() >= deadline)
      throw new CliError(
        `certificate ${certificate.name} is still ${certificate.status} after ${timeoutSeconds} s`,
      );
    await sleep(1000);
  }
}

function summaryOf(certificate: Certificate): string {
  const records = certificate.acme?.dnsRecords ?? [];
  if (certificate.acme?.awaitingConfirmation)
    return [
      `certificate ${certificate.name} waits for these TXT records:`,
      ...records.map((record) => `  ${record.name}  TXT  ${record.value}`),
      `then: infragate certificates acme confirm ${certificate.name}`,
    ].join('\n');
  if (certificate.status === 'failed')
    return `certificate ${certificate.name} failed: ${certificate.lastError}`;
  if (certificate.status === 'valid')
    return `certificate ${certificate.name} is valid until ${certificate.notAfter} (${certificate.sans?.join(', ')})`;
  return `certificate ${certificate.name} is ${certificate.status}; see infragate certificates get ${certificate.name}`;
}

const waitOptions = (command: Command) =>
  command
    .option(
      '--wait',
      'wait until the certificate is issued or failed (or waits for TXT records); exit 1 when it failed',
    )
    .option('--timeout <seconds>', 'with --wait: give up after this long (default 300)');

/** Prints the certificate an ACME call answered, after waiting for it when asked. */
async function report(context: ApiContext, certificate: Certificate): Promise<void> {
  const settled = context.opts.wait
    ? await waitFor(
        context,
        certificate.id,
        context.opts.timeout === undefined ? 300 : integer(context.opts.timeout, '--timeout'),
      )
    : certificate;
  context.out.done(settled, summaryOf(settled));
  if (settled.status === 'failed') process.exitCode = 1;
}

const orderFlags: Flag<BodyField<'/api/ssl-certificates/acme', 'POST'>>[] = [
  text('--name <name>', 'name', 'unique name of the certificate', true),
  {
    flags: '--domain <name>',
    field: 'domains',
    description: 'a host name to certify (*.domain with dns-01)',
    repeatable: true,
  },
  text('--challenge <type>', 'challenge', ACME_CHALLENGE_TYPES.join(' or '), true),
  text('--email <address>', 'accountEmail', 'ACME account contact', true),
  text(
    '--directory-url <url>',
    'directoryUrl',
    "RFC 8555 directory (default: the configured one, Let's Encrypt)",
  ),
  idFlag(
    '--dns-provider <provider>',
    'dnsProviderId',
    'dns-01: the provider that creates the TXT records (name or id); without it, manual mode',
    (context, ref) => idOf(dnsProviders, context, ref),
  ),
];

function registerAcme(area: Command, certificates: Resource<'/api/ssl-certificates', 'id'>): void {
  const acme = area
    .command('acme')
    .description('certificates ordered from an ACME CA and renewed by the gateway');
  apiAction(
    waitOptions(
      addFlags(acme.command('order').description('order a certificate from an ACME CA'), orderFlags),
    ),
    async (context) => {
      const json = await bodyFromFlags(context, orderFlags);
      await report(context, (await context.api.call('POST', '/api/ssl-certificates/acme', { json })).data);
    },
  );
  for (const [verb, route, description] of [
    [
      'confirm',
      '/api/ssl-certificates/{id}/acme/confirm',
      'manual dns-01: the TXT records are in place, go on',
    ],
    ['renew', '/api/ssl-certificates/{id}/acme/renew', 'renew now (or retry a failed order now)'],
  ] as const)
    apiAction(
      waitOptions(resourceCommand(acme, certificates, `${verb} <certificate>`, description)),
      async (context) => {
        const path = await recordParams(certificates, context, context.args[0]);
        await report(context, (await context.api.call('POST', route, { path })).data);
      },
    );
}

function registerDnsProviders(area: Command): void {
  const sub = area
    .command('dns-providers')
    .description('DNS servers that take dynamic updates for dns-01 (RFC 2136)');
  lsCommand(sub, dnsProviders, {
    columns: ['name', 'kind', 'server', 'port', 'zone', 'tsigKeyName', 'id'],
    filters: [text('--q <text>', 'q', 'substring of the name')],
  });
  getCommand(sub, dnsProviders);
  createCommand(sub, dnsProviders, {
    flags: [
      text('--name <name>', 'name', 'unique name', true),
      text('--kind <kind>', 'kind', 'rfc2136 (the default)'),
      text('--server <host>', 'server', 'host name or address of the primary', true),
      whole('--port <port>', 'port', 'DNS port (default 53)'),
      text('--zone <zone>', 'zone', 'the zone the updates go to, e.g. example.com', true),
      text('--tsig-key-name <name>', 'tsigKeyName', 'name of the TSIG key', true),
      text(
        '--tsig-algorithm <algorithm>',
        'tsigAlgorithm',
        `${TSIG_ALGORITHMS.join(', ')} (default hmac-sha256)`,
      ),
      stdinSecret('tsig-secret-stdin', 'tsigSecret', 'read the TSIG key (base64) from standard input'),
      whole('--ttl <seconds>', 'ttl', 'TTL of the TXT records (default 60)'),
    ],
    fromArgs: () => ({ kind: 'rfc2136' }),
    description: 'add a DNS provider; the TSIG key is write-only',
  });
  deleteCommand(sub, dnsProviders, { description: 'delete a DNS provider no ACME certificate uses' });
}

export function registerCertificatesAcme(
  area: Command,
  certificates: Resource<'/api/ssl-certificates', 'id'>,
): void {
  registerAcme(area, certificates);
  registerDnsProviders(area);
}
