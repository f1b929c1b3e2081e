import type { Readable } from 'node:stream';
import { conflict, unprocessable } from '../../core/errors.js';
import type { ServerSentEvent } from '../../core/sse.js';
import type { EngineNodeService } from './engine-nodes.js';
import { stripSlash } from './engine-port.js';
import type { StatsSample } from './schemas/container-streams.js';
import { JsonLines } from './stream-frames.js';

/** The part of the engine's stats object the sample is made of (Docker's shape; Podman answers it too). */
interface EngineStats {
  read?: string;
  cpu_stats?: CpuStats;
  precpu_stats?: CpuStats;
  memory_stats?: { usage?: number; limit?: number; stats?: Record<string, number> };
  networks?: Record<string, { rx_bytes?: number; tx_bytes?: number }>;
  blkio_stats?: { io_service_bytes_recursive?: { op?: string; value?: number }[] | null };
  pids_stats?: { current?: number };
}

interface CpuStats {
  cpu_usage?: { total_usage?: number; percpu_usage?: number[] };
  system_cpu_usage?: number;
  online_cpus?: number;
}

/** Engines answer an unlimited container's memory limit as the host's memory or a huge number. */
const NO_LIMIT = 2 ** 62;

/** CPU use since the previous reading; undefined when the sample has no previous reading to compare. */
function cpuPercent({ cpu_stats: now, precpu_stats: before }: EngineStats): number | undefined {
  const system = (now?.system_cpu_usage ?? 0) - (before?.system_cpu_usage ?? 0);
  const used = (now?.cpu_usage?.total_usage ?? 0) - (before?.cpu_usage?.total_usage ?? 0);
  if (!before?.system_cpu_usage || system <= 0 || used < 0) return undefined;
  const cpus = now?.online_cpus || now?.cpu_usage?.percpu_usage?.length || 1;
  return Math.round((used / system) * cpus * 100 * 100) / 100;
}

export function sampleOf(stats: EngineStats): StatsSample {
  const memory = stats.memory_stats ?? {};
  // Page cache the kernel can drop is not the container's use (cgroup v2: inactive_file; v1: cache).
  const cache = memory.stats?.inactive_file ?? memory.stats?.total_inactive_file ?? memory.stats?.cache ?? 0;
  const networks = Object.values(stats.networks ?? {});
  const io = stats.blkio_stats?.io_service_bytes_recursive ?? [];
  const ioSum = (op: string) =>
    io.filter((entry) => entry.op?.toLowerCase() === op).reduce((sum, entry) => sum + (entry.value ?? 0), 0);
  return {
    cpuPercent: cpuPercent(stats) ?? null,
    memoryBytes: Math.max(0, (memory.usage ?? 0) - cache),
    memoryLimitBytes: memory.limit && memory.limit < NO_LIMIT ? memory.limit : null,
    networkRxBytes: networks.reduce((sum, n) => sum + (n.rx_bytes ?? 0), 0),
    networkTxBytes: networks.reduce((sum, n) => sum + (n.tx_bytes ?? 0), 0),
    blockReadBytes: ioSum('read'),
    blockWriteBytes: ioSum('write'),
    pids: stats.pids_stats?.current ?? null,
    readAt: stats.read && !stats.read.startsWith('0001-') ? stats.read : null,
  };
}

/** A running container's resource use: one sample, or a sample per second as Server-Sent Events. */
export class ContainerStatsService {
  constructor(private readonly deps: { engineNodes: EngineNodeService }) {}

  /**
   * One sample with a CPU figure: the engine's first reading has nothing to compare with, so this waits
   * for the first one that has (about a second).
   */
  async sample(nodeId: string, containerId: string): Promise<StatsSample> {
    const controller = new AbortController();
    const { engine, what, stream } = await this.open(nodeId, containerId, controller.signal);
    try {
      return await engine.withinDeadline(
        (async () => {
          let first: StatsSample | undefined;
          for await (const sample of samples(stream)) {
            if (sample.cpuPercent !== null || first) return sample;
            first = sample;
          }
          if (first) return first;
          throw unprocessable('NO_SAMPLE', 'the engine ended the statistics without a sample');
        })(),
        what,
      );
    } finally {
      controller.abort();
    }
  }

  /** Samples as `stats` events until the container stops or `signal` aborts (the client left). */
  async stream(
    nodeId: string,
    containerId: string,
    signal: AbortSignal,
  ): Promise<AsyncIterable<ServerSentEvent>> {
    const { stream } = await this.open(nodeId, containerId, signal);
    return (async function* () {
      for await (const sample of samples(stream)) yield { event: 'stats', data: sample };
    })();
  }

  /** Opens the engine's stats stream of a running container (409 when it is not running). */
  private async open(nodeId: string, containerId: string, signal: AbortSignal) {
    const { engine } = await this.deps.engineNodes.engine(nodeId);
    const what = { nodeId, containerId };
    const container = await engine.inspectContainer(containerId);
    if (!container.State?.Running)
      throw conflict('CONTAINER_NOT_RUNNING', {
        explanation: `container ${stripSlash(container.Name)} is ${container.State?.Status ?? 'not running'}; statistics need a running container`,
      });
    const stream = await engine.containerStats(container.Id, signal);
    return { engine, what, stream };
  }
}

async function* samples(stream: Readable): AsyncGenerator<StatsSample> {
  const lines = new JsonLines();
  for await (const chunk of stream)
    for (const stats of lines.push(chunk as Buffer)) yield sampleOf(stats as EngineStats);
}
