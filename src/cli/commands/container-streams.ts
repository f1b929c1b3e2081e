import type { Command } from 'commander';
import type { Static } from 'typebox';
import type {
  LogLine as LogLineSchema,
  LogLines,
  StatsSample,
} from '../../modules/containerhost/schemas/container-streams.js';
import type { ExecResult } from '../../modules/containerhost/schemas/exec.js';
import { type ApiContext, apiAction } from '../api-command.js';
import { CliError } from '../cli-error.js';
import { addFlags, bodyFromFlags, type Flag, integer, text, whole } from '../flags.js';
import { type Resource, recordRoute, resourceCommand, unwrap } from '../resource.js';
import { formatBytes } from '../upload/byte-sizes.js';
import { envFlag } from './container-create.js';

/**
 * What a container writes: its logs (read, or followed as Server-Sent Events) and the output of a
 * command run in it. Both print the container's own words on stdout and stderr, so they pipe like
 * `docker logs` and `docker exec`; JSON only with an explicit `--json`. And what it uses: `stats`.
 */

type LogLine = Static<typeof LogLineSchema>;

function printLine(context: ApiContext, entry: LogLine): void {
  if (context.opts.json) {
    process.stdout.write(`${JSON.stringify(entry)}\n`);
    return;
  }
  const text = context.opts.timestamps && entry.timestamp ? `${entry.timestamp} ${entry.line}` : entry.line;
  (entry.stream === 'stderr' ? process.stderr : process.stdout).write(`${text}\n`);
}

async function followLogs(context: ApiContext, route: string, query: Record<string, string>): Promise<void> {
  for await (const { event, data } of context.api.events('GET', route, {
    query: { ...query, follow: 'true' },
  })) {
    if (event === 'log') printLine(context, data as LogLine);
    else if (event === 'end') return;
  }
}

function registerLogs(area: Command, containers: Resource): void {
  const command = resourceCommand(
    area,
    containers,
    'logs <container>',
    "a container's output (stdout lines on stdout, stderr lines on stderr)",
  )
    .option('--tail <n>', 'the last n lines (1-100000, or all; default 200)')
    .option('--since <time>', 'only lines since this time (UNIX seconds or ISO-8601)')
    .option('--until <time>', 'only lines before this time (UNIX seconds or ISO-8601)')
    .option('-t, --timestamps', "prefix each line with the engine's timestamp")
    .option('-f, --follow', 'keep printing new lines until the container stops (or Ctrl-C)');
  apiAction(command, async (context) => {
    const { tail, since, until, timestamps } = context.opts;
    if (tail !== undefined && tail !== 'all') integer(tail, '--tail');
    const route = `${await recordRoute(containers, context, context.args[0])}/logs`;
    const query = Object.fromEntries(
      Object.entries({ tail, since, until, timestamps: String(Boolean(timestamps)) }).filter(
        (entry): entry is [string, string] => entry[1] !== undefined,
      ),
    );
    if (context.opts.follow) return followLogs(context, route, query);
    const answer = await context.api.call<LogLines>('GET', route, { query });
    if (context.opts.json) return context.out.done(answer, '');
    for (const entry of answer.data) printLine(context, entry);
    if (answer.truncated)
      process.stderr.write('(the answer stopped at 8 MiB; use --tail or --since for less)\n');
  });
  jsonOnlyWhenAsked(command);
}

const execFlags: Flag[] = [
  envFlag,
  text('-w, --workdir <path>', 'workingDir', 'working directory (absolute)'),
  text('-u, --user <user[:group]>', 'user', 'run as this user'),
  whole('--timeout <seconds>', 'timeoutSeconds', 'stop waiting after this long (1-600, default 60)'),
];

function registerExec(area: Command, containers: Resource): void {
  const command = resourceCommand(
    area,
    containers,
    'exec <container> <cmd...>',
    'run a command in a running container (after --); prints its output, exits with its exit code',
  );
  addFlags(command, execFlags);
  apiAction(command, async (context) => {
    const body = { cmd: context.args[1] as string[], ...(await bodyFromFlags(context, execFlags)) };
    const route = `${await recordRoute(containers, context, context.args[0])}/exec`;
    const result = (await context.api.call<{ data: ExecResult }>('POST', route, { json: body })).data;
    if (context.opts.json) context.out.done(result, '');
    else {
      process.stdout.write(result.stdout);
      process.stderr.write(result.stderr);
      if (result.truncated) process.stderr.write('(output cut at 1 MiB per stream)\n');
    }
    if (result.timedOut)
      throw new CliError('the command timed out (it may still be running in the container)');
    process.exitCode = result.exitCode ?? 1;
  });
  jsonOnlyWhenAsked(command);
}

/** These print the container's words whatever stdout is; JSON only when asked. */
function jsonOnlyWhenAsked(command: Command): void {
  const json = command.options.find((option) => option.long === '--json')!;
  json.description = "print the API's answer as JSON instead of the container's output";
}

/** One sample as one line, like `docker stats`. */
function statsLine(sample: StatsSample): string {
  const cpu = sample.cpuPercent === null ? '-' : `${sample.cpuPercent.toFixed(1)}%`;
  const limit = sample.memoryLimitBytes === null ? '' : ` / ${formatBytes(sample.memoryLimitBytes)}`;
  return [
    `CPU ${cpu}`,
    `MEM ${formatBytes(sample.memoryBytes)}${limit}`,
    `NET ${formatBytes(sample.networkRxBytes)} in / ${formatBytes(sample.networkTxBytes)} out`,
    `BLOCK ${formatBytes(sample.blockReadBytes)} read / ${formatBytes(sample.blockWriteBytes)} written`,
    `PIDS ${sample.pids ?? '-'}`,
  ].join('  ');
}

function registerStats(area: Command, containers: Resource): void {
  const command = resourceCommand(
    area,
    containers,
    'stats <container>',
    "a running container's CPU, memory, network, block I/O and processes",
  ).option(
    '--stream',
    'print a sample a second (one JSON line each for scripts) until the container stops or Ctrl-C',
  );
  apiAction(command, async (context) => {
    const route = `${await recordRoute(containers, context, context.args[0])}/stats`;
    if (!context.opts.stream) {
      const sample = unwrap(await context.api.call('GET', route)) as StatsSample;
      return context.out.json ? context.out.record(sample) : context.out.line(statsLine(sample));
    }
    for await (const { event, data } of context.api.events('GET', route, { query: { stream: 'true' } })) {
      if (event === 'end') return;
      if (event === 'stats')
        context.out.line(context.out.json ? JSON.stringify(data) : statsLine(data as StatsSample));
    }
  });
}

export function registerContainerStreams(area: Command, containers: Resource): void {
  registerLogs(area, containers);
  registerExec(area, containers);
  registerStats(area, containers);
}
