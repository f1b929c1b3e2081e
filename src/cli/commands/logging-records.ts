import type { Command } from 'commander';
import type { Static } from 'typebox';
import { LOG_LEVELS } from '../../db/schema/logging-records.js';
import type { LogRecordView, RecordPage as RecordPageSchema } from '../../modules/logging/record-schemas.js';
import type { QueryValues } from '../api-client.js';
import { type ApiContext, apiAction } from '../api-command.js';
import { CliError } from '../cli-error.js';
import { collect } from '../fields.js';
import { addFlags, bodyFromFlags, type Flag, integer, text } from '../flags.js';
import {
  createCommand,
  deleteCommand,
  lsCommand,
  type Resource,
  recordRoute,
  resourceCommand,
} from '../resource.js';

type RecordPage = Static<typeof RecordPageSchema>;

/**
 * An environment's records (search newest first, tail and follow as Server-Sent Events, like
 * `containers logs -f`) and its ingest tokens.
 */

const filterFlags: Flag[] = [
  text('--level <levels>', 'level', `levels, comma-separated (${LOG_LEVELS.join(', ')})`),
  text('--service <name>', 'service', 'exact service name'),
  text('--q <text>', 'q', 'full text on the message: words (all must occur), "a phrase", or, -excluded'),
];

const searchFlags: Flag[] = [
  ...filterFlags,
  text('--from <time>', 'from', 'ISO-8601 date-time, inclusive'),
  text('--to <time>', 'to', 'ISO-8601 date-time, exclusive'),
  text('--cursor <cursor>', 'cursor', 'where the previous page ended (printed after a full page)'),
];

/** The filters of a search or tail as query parameters, `--field name=value` as `field.name=value`. */
async function filterQuery(context: ApiContext, flags: Flag[]): Promise<QueryValues> {
  const query = (await bodyFromFlags(context, flags)) as QueryValues;
  for (const spec of (context.opts.field as string[] | undefined) ?? []) {
    const at = spec.indexOf('=');
    if (at <= 0) throw new CliError(`--field ${spec} is not name=value`);
    query[`field.${spec.slice(0, at)}`] = spec.slice(at + 1);
  }
  return query;
}

function withFilters(command: Command, flags: Flag[]): Command {
  return addFlags(command, flags).option(
    '--field <name=value>',
    'only records whose field equals the value (repeatable)',
    collect,
  );
}

/** One record as a line: time, level, service and message (JSON lines with `--json`). */
function printRecord(context: ApiContext, record: LogRecordView): void {
  if (context.out.json) context.out.line(JSON.stringify(record));
  else
    context.out.line(
      `${record.timestamp} ${record.level.toUpperCase().padEnd(5)} ${record.service ?? '-'}  ${record.message}`,
    );
}

function registerSearch(sub: Command, environments: Resource): void {
  const command = withFilters(
    resourceCommand(
      sub,
      environments,
      'search <environment>',
      'search records, newest first, a page at a time',
    ),
    searchFlags,
  ).option('--limit <n>', 'records per page (1-1000, default 100)');
  apiAction(command, async (context) => {
    const route = `${await recordRoute(environments, context, context.args[0])}/records`;
    const query = await filterQuery(context, searchFlags);
    if (context.opts.limit !== undefined) query.limit = integer(context.opts.limit, '--limit');
    const page = await context.api.call<RecordPage>('GET', route, { query });
    context.out.list(page.data, ['timestamp', 'level', 'service', 'message']);
    if (page.nextCursor) process.stderr.write(`more: --cursor ${page.nextCursor}\n`);
  });
}

function registerTail(sub: Command, environments: Resource): void {
  const command = withFilters(
    resourceCommand(
      sub,
      environments,
      'tail <environment>',
      'print the last records, oldest first; -f keeps printing new ones as they arrive (until Ctrl-C)',
    ),
    filterFlags,
  )
    .option('-n, --lines <n>', 'how many of the last records (0-1000, default 10)')
    .option('-f, --follow', 'keep printing records as they are ingested');
  apiAction(command, async (context) => {
    const environment = await recordRoute(environments, context, context.args[0]);
    const filters = await filterQuery(context, filterFlags);
    const lines = context.opts.lines === undefined ? 10 : integer(context.opts.lines, '--lines');
    // Following starts before the last records are read, so nothing ingested in between is missed.
    const stream = context.opts.follow
      ? await context.api.openEvents('GET', `${environment}/tail`, { query: filters })
      : undefined;
    let last = 0n;
    if (lines > 0) {
      const page = await context.api.call<RecordPage>('GET', `${environment}/records`, {
        query: { ...filters, limit: lines },
      });
      for (const record of page.data.reverse()) {
        printRecord(context, record);
        if (BigInt(record.id) > last) last = BigInt(record.id);
      }
    }
    if (!stream) return;
    for await (const { event, data } of stream) {
      if (event === 'skipped')
        process.stderr.write('(some records were skipped: more arrived at once than a tail sends)\n');
      if (event !== 'record') continue;
      const record = data as LogRecordView;
      // Already printed with the last records.
      if (BigInt(record.id) <= last) continue;
      printRecord(context, record);
    }
  });
}

function registerIngestTokens(area: Command, environments: Resource): void {
  const environmentFlag: Flag = {
    flags: '--environment <environment>',
    field: 'environment',
    description: 'logging environment (name or id)',
    required: true,
  };
  const tokens: Resource = {
    noun: 'token',
    route: async (context) => `${await recordRoute(environments, context, context.opts.environment)}/tokens`,
    lookup: { by: 'name' },
    scope: [environmentFlag],
  };
  const sub = area.command('ingest-tokens').description("an environment's ingest tokens (--environment)");
  lsCommand(sub, tokens, {
    columns: ['name', 'createdAt', 'lastUsedAt', 'expiresAt', 'revokedAt', 'id'],
    description: 'list ingest tokens (never their secrets), newest first',
  });
  createCommand(sub, tokens, {
    flags: [
      text('--name <name>', 'name', 'what sends with it, e.g. fluent-bit', true),
      text('--expires-at <time>', 'expiresAt', 'ISO-8601 date-time (default: never)'),
    ],
    description: 'create a token for POST /api/logging/ingest and /v1/logs; its secret (igl_…) is shown once',
  });
  deleteCommand(sub, tokens, { name: 'revoke', done: 'revoked', description: 'revoke an ingest token' });
}

export function registerRecords(area: Command, environments: Resource): void {
  const sub = area.command('records').description("an environment's log records");
  registerSearch(sub, environments);
  registerTail(sub, environments);
  registerIngestTokens(area, environments);
}
