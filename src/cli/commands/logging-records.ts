import type { Command } from 'commander';
import { LOG_LEVELS } from '../../db/schema/log-levels.js';
import type { CallAnswer } from '../api-client.js';
import { type ApiContext, apiAction } from '../api-command.js';
import { CliError } from '../cli-error.js';
import { collect } from '../fields.js';
import { addFlags, bodyFromFlags, type Flag, integer, text } from '../flags.js';
import {
  type AnyResource,
  createCommand,
  deleteCommand,
  idOf,
  isRecord,
  lsCommand,
  type QueryField,
  resource,
  resourceCommand,
} from '../resource.js';

const RECORDS = '/api/logging/environments/{id}/records';
type LogRecord = CallAnswer<typeof RECORDS, 'GET'>['data'][number];

/**
 * A tail's `record` event carries a record as a search answers it. The API document does not
 * describe the tail's events, so the fields printed are checked before the data is read as one.
 */
const isLogRecord = (data: unknown): data is LogRecord =>
  isRecord(data) &&
  typeof data.id === 'string' &&
  typeof data.timestamp === 'string' &&
  typeof data.level === 'string' &&
  typeof data.message === 'string';

/**
 * An environment's records (search newest first, tail and follow as Server-Sent Events, like
 * `containers logs -f`) and its ingest tokens.
 */

const filterFlags = [
  text('--level <levels>', 'level', `levels, comma-separated (${LOG_LEVELS.join(', ')})`),
  text('--service <name>', 'service', 'exact service name'),
  text('--q <text>', 'q', 'full text on the message: words (all must occur), "a phrase", or, -excluded'),
];

const searchFlags = [
  ...filterFlags,
  text('--from <time>', 'from', 'ISO-8601 date-time, inclusive'),
  text('--to <time>', 'to', 'ISO-8601 date-time, exclusive'),
  text('--cursor <cursor>', 'cursor', 'where the previous page ended (printed after a full page)'),
];

/** The filters of a search or tail as query parameters, `--field name=value` as `field.name=value`. */
async function filterQuery<Field extends QueryField<typeof RECORDS, 'GET'>>(
  context: ApiContext,
  flags: readonly Flag<Field>[],
) {
  const query = await bodyFromFlags(context, flags);
  const specs: string[] = context.opts.field ?? [];
  for (const spec of specs) {
    const at = spec.indexOf('=');
    if (at <= 0) throw new CliError(`--field ${spec} is not name=value`);
    query[`field.${spec.slice(0, at)}`] = spec.slice(at + 1);
  }
  return query;
}

function withFilters(command: Command, flags: readonly Flag[]): Command {
  return addFlags(command, flags).option(
    '--field <name=value>',
    'only records whose field equals the value (repeatable)',
    collect,
  );
}

/** One record as a line: time, level, service and message (JSON lines with `--json`). */
function printRecord(context: ApiContext, record: LogRecord): void {
  if (context.out.json) context.out.line(JSON.stringify(record));
  else
    context.out.line(
      `${record.timestamp} ${record.level.toUpperCase().padEnd(5)} ${record.service ?? '-'}  ${record.message}`,
    );
}

/** `{id}` of the environment `ref` names. */
const environmentParams = async (environments: AnyResource, context: ApiContext, ref: string) => ({
  id: await idOf(environments, context, ref),
});

function registerSearch(sub: Command, environments: AnyResource): void {
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
    const path = await environmentParams(environments, context, context.args[0]);
    const query = await filterQuery(context, searchFlags);
    if (context.opts.limit !== undefined) query.limit = integer(context.opts.limit, '--limit');
    const page = await context.api.call('GET', RECORDS, { path, query });
    context.out.list(page.data, ['timestamp', 'level', 'service', 'message']);
    if (page.nextCursor) process.stderr.write(`more: --cursor ${page.nextCursor}\n`);
  });
}

function registerTail(sub: Command, environments: AnyResource): void {
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
    const path = await environmentParams(environments, context, context.args[0]);
    const filters = await filterQuery(context, filterFlags);
    const lines = context.opts.lines === undefined ? 10 : integer(context.opts.lines, '--lines');
    // Following starts before the last records are read, so nothing ingested in between is missed.
    const stream = context.opts.follow
      ? await context.api.openEvents('GET', '/api/logging/environments/{id}/tail', {
          path,
          query: filters,
          main: 'record',
        })
      : undefined;
    let last = 0n;
    if (lines > 0) {
      const page = await context.api.call('GET', RECORDS, { path, query: { ...filters, limit: lines } });
      for (const record of page.data.reverse()) {
        printRecord(context, record);
        if (BigInt(record.id) > last) last = BigInt(record.id);
      }
    }
    if (!stream) return;
    for await (const event of stream) {
      if (event.event === 'skipped')
        process.stderr.write('(some records were skipped: more arrived at once than a tail sends)\n');
      // Those not above `last` were printed with the last records.
      if (event.main && isLogRecord(event.data) && BigInt(event.data.id) > last)
        printRecord(context, event.data);
    }
  });
}

function registerIngestTokens(area: Command, environments: AnyResource): void {
  const environmentFlag: Flag = {
    flags: '--environment <environment>',
    field: 'environment',
    description: 'logging environment (name or id)',
    required: true,
  };
  const tokens = resource({
    noun: 'token',
    list: '/api/logging/environments/{id}/tokens',
    id: 'tokenId',
    parents: (context) => environmentParams(environments, context, context.opts.environment),
    lookup: { by: 'name' },
    scope: [environmentFlag],
  });
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

export function registerRecords(area: Command, environments: AnyResource): void {
  const sub = area.command('records').description("an environment's log records");
  registerSearch(sub, environments);
  registerTail(sub, environments);
  registerIngestTokens(area, environments);
}
