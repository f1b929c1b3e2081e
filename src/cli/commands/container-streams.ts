import type { Command } from 'commander';
import type { CallAnswer } from '../api-client.js';
import { type ApiContext, apiAction } from '../api-command.js';
import { CliError } from '../cli-error.js';
import { addFlags, bodyFromFlags, integer, text, whole } from '../flags.js';
import { type Resource, recordParams, resourceCommand } from '../resource.js';
import { formatBytes } from '../upload/byte-sizes.js';
import { envFlag } from './container-create.js';

/**
 * What a container writes: its logs (read, or followed as Server-Sent Events) and the output of a
 * command run in it. Both print the container's own words on stdout and stderr, so they pipe like
 * `docker logs` and `docker exec`; JSON only with an explicit `--json`. And what it uses: `stats`.
 */

type Containers = Resource<'/api/containerhost/nodes/{nodeId}/containers', 'containerId'>;
const LOGS = '/api/containerhost/nodes/{nodeId}/containers/{containerId}/logs';
const STATS = '/api/containerhost/nodes/{nodeId}/containers/{containerId}/stats';
type LogLine = CallAnswer<typeof LOGS, 'GET'>['data'][number];
type StatsSample = CallAnswer<typeof STATS, 'GET'>['data'];

function printLine(context: ApiContext, entry: LogLine): void {
  if (context.opts.json) {
    process.stdout.write(`${JSON.stringify(entry)}\n`);
    return;
  }
  const text = context.opts.timestamps && entry.timestamp ? `${entry.timestamp} ${entry.line}` : entry.line;
  (entry.stream === 'stderr' ? process.stderr : process.stdout).write(`${text}\n`);
}

function registerLogs(area: Command, containers: Containers): void {
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
    const query = {
      tail: tail === undefined || tail === 'all' ? tail : integer(tail, '--tail'),
      since,
      until,
      timestamps: Boolean(timestamps),
    };
    const path = await recordParams(containers, context, context.args[0]);
    if (context.opts.follow) {
      const events = context.api.events('GET', LOGS, {
        path,
        query: { ...query, follow: true },
        main: 'log',
      });
      for await (const event of events) {
        if (event.main) printLine(context, event.data);
        else if (event.event === 'end') return;
      }
      return;
    }
    const answer = await context.api.call('GET', LOGS, { path, query });
    if (context.opts.json) return context.out.done(answer, '');
    for (const entry of answer.data) printLine(context, entry);
    if (answer.truncated)
      process.stderr.write('(the answer stopped at 8 MiB; use --tail or --since for less)\n');
  });
  jsonOnlyWhenAsked(command);
}

const execFlags = [
  envFlag,
  text('-w, --workdir <path>', 'workingDir', 'working directory (absolute)'),
  text('-u, --user <user[:group]>', 'user', 'run as this user'),
  whole('--timeout <seconds>', 'timeoutSeconds', 'stop waiting after this long (1-600, default 60)'),
];

function registerExec(area: Command, containers: Containers): void {
  const command = resourceCommand(
    area,
    containers,
    'exec <container> <cmd...>',
    'run a command in a running container (after --); prints its output, exits with its exit code',
  );
  addFlags(command, execFlags);
  apiAction(command, async (context) => {
    const [container, cmd]: [string, string[]] = context.args;
    const json = { cmd, ...(await bodyFromFlags(context, execFlags)) };
    const { data: result } = await context.api.call(
      'POST',
      '/api/containerhost/nodes/{nodeId}/containers/{containerId}/exec',
      { path: await recordParams(containers, context, container), json },
    );
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

function registerStats(area: Command, containers: Containers): void {
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
    const path = await recordParams(containers, context, context.args[0]);
    if (!context.opts.stream) {
      const { data: sample } = await context.api.call('GET', STATS, { path });
      return context.out.json ? context.out.record(sample) : context.out.line(statsLine(sample));
    }
    for await (const event of context.api.events('GET', STATS, {
      path,
      query: { stream: true },
      main: 'stats',
    })) {
      if (event.event === 'end') return;
      if (event.main) context.out.line(context.out.json ? JSON.stringify(event.data) : statsLine(event.data));
    }
  });
}

export function registerContainerStreams(area: Command, containers: Containers): void {
  registerLogs(area, containers);
  registerExec(area, containers);
  registerStats(area, containers);
}
