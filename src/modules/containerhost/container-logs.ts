import type { Readable } from 'node:stream';
import { invalidField, type ValidationIssue, validationError } from '../../core/errors.js';
import type { ServerSentEvent } from '../../core/sse.js';
import type { EngineNodeService } from './engine-nodes.js';
import type { LogSelection } from './engine-port.js';
import type { LogLine, LogLines, LogsQuery } from './schemas/container-streams.js';
import { FrameDecoder, LineSplitter, logLine } from './stream-frames.js';

/** A JSON answer carries at most this much log text; `truncated` says when it stopped there. */
const LOG_ANSWER_LIMIT_BYTES = 8 * 1024 * 1024;
const DEFAULT_TAIL = 200;

/** `since`/`until` as the engine takes them: UNIX seconds. */
function unixSeconds(text: string | undefined, field: string, issues: ValidationIssue[]): number | undefined {
  if (text === undefined) return undefined;
  if (/^\d{1,12}$/.test(text)) return Number(text);
  const time = Date.parse(text);
  if (/^\d{4}-\d{2}-\d{2}T/.test(text) && !Number.isNaN(time)) return Math.floor(time / 1000);
  issues.push({ path: [field], message: 'must be UNIX seconds or an ISO-8601 date-time' });
  return undefined;
}

/** The engine's selection for a logs request. */
function engineQuery(query: LogsQuery, follow: boolean): LogSelection {
  const issues: ValidationIssue[] = [];
  const since = unixSeconds(query.since, 'since', issues);
  const until = unixSeconds(query.until, 'until', issues);
  if (issues.length > 0) throw validationError(issues);
  const stdout = query.stdout ?? true;
  const stderr = query.stderr ?? true;
  if (!stdout && !stderr) throw invalidField(['stdout'], 'stdout and stderr cannot both be false');
  return {
    follow,
    stdout,
    stderr,
    tail: query.tail ?? DEFAULT_TAIL,
    ...(since !== undefined ? { since } : {}),
    ...(until !== undefined ? { until } : {}),
  };
}

/** A container's logs: lines as JSON, or followed as Server-Sent Events. */
export class ContainerLogService {
  constructor(private readonly deps: { engineNodes: EngineNodeService }) {}

  /** The selected lines, demultiplexed, at most LOG_ANSWER_LIMIT_BYTES of them. */
  async read(nodeId: string, containerId: string, query: LogsQuery): Promise<LogLines> {
    const options = engineQuery(query, false);
    const { engine, id, tty, what } = await this.container(nodeId, containerId);
    const controller = new AbortController();
    const stream = await engine.containerLogs(id, options, controller.signal);
    try {
      return await engine.withinDeadline(collect(stream, tty, query.timestamps ?? true), what);
    } finally {
      controller.abort();
    }
  }

  /**
   * Opens the followed stream (errors before it opens are thrown) and answers its lines as `log` events
   * until the container stops or `signal` aborts (the client left).
   */
  async follow(
    nodeId: string,
    containerId: string,
    query: LogsQuery,
    signal: AbortSignal,
  ): Promise<AsyncIterable<ServerSentEvent[]>> {
    const options = engineQuery(query, true);
    const { engine, id, tty } = await this.container(nodeId, containerId);
    const stream = await engine.containerLogs(id, options, signal);
    const keepTimestamps = query.timestamps ?? true;
    return (async function* () {
      for await (const batch of lineBatches(stream, tty, keepTimestamps))
        yield batch.map((line) => ({ event: 'log', data: line }));
    })();
  }

  private async container(nodeId: string, containerId: string) {
    const { engine } = await this.deps.engineNodes.engine(nodeId);
    const what = { nodeId, containerId };
    const container = await engine.inspectContainer(containerId);
    return { engine, what, id: container.Id, tty: container.Config?.Tty ?? false };
  }
}

/** The lines of a log stream as they come, those of one engine chunk together; the unfinished last line at the end. */
async function* lineBatches(
  stream: Readable,
  tty: boolean,
  keepTimestamps: boolean,
): AsyncGenerator<LogLine[]> {
  const frames = new FrameDecoder(tty);
  const splitter = new LineSplitter();
  for await (const chunk of stream) {
    const batch = frames.push(chunk as Buffer).flatMap((frame) => splitter.push(frame));
    if (batch.length > 0) yield batch.map((line) => logLine(line, keepTimestamps));
  }
  const rest = splitter.flush();
  if (rest.length > 0) yield rest.map((line) => logLine(line, keepTimestamps));
}

async function collect(stream: Readable, tty: boolean, keepTimestamps: boolean): Promise<LogLines> {
  const data: LogLine[] = [];
  let size = 0;
  for await (const batch of lineBatches(stream, tty, keepTimestamps))
    for (const line of batch) {
      size += line.line.length;
      if (size > LOG_ANSWER_LIMIT_BYTES) return { data, truncated: true };
      data.push(line);
    }
  return { data, truncated: false };
}
