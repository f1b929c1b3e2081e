import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { MetricFamily } from './exposition.js';
import { type Collector, gauge } from './registry.js';

const NS_PER_SECOND = 1e9;

/**
 * The process's own figures, under the names Prometheus's client libraries use (`process_*`,
 * `nodejs_*`), so existing dashboards read them: CPU time, memory, and the event loop's delay since
 * the previous scrape (the delay histogram is reset after each read, so a stall shows
 * in the scrape that follows it, not diluted by hours of idle).
 */
export function processCollector(): Collector & { stop(): void } {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const started = Date.now() / 1000 - process.uptime();
  return {
    name: 'process',
    stop: () => delay.disable(),
    collect(): MetricFamily[] {
      const cpu = process.cpuUsage();
      const memory = process.memoryUsage();
      const seconds = (nanoseconds: number) => (delay.count > 0 ? nanoseconds / NS_PER_SECOND : 0);
      const lag = (name: string, help: string, nanoseconds: number) =>
        gauge(
          `nodejs_eventloop_lag_${name}_seconds`,
          `Event loop delay since the previous scrape: ${help}, in seconds`,
          [{ value: seconds(nanoseconds) }],
        );
      const families: MetricFamily[] = [
        {
          name: 'process_cpu_user_seconds_total',
          help: 'User CPU time spent by the process, in seconds',
          type: 'counter',
          samples: [{ value: cpu.user / 1e6 }],
        },
        {
          name: 'process_cpu_system_seconds_total',
          help: 'System CPU time spent by the process, in seconds',
          type: 'counter',
          samples: [{ value: cpu.system / 1e6 }],
        },
        {
          name: 'process_cpu_seconds_total',
          help: 'User and system CPU time spent by the process, in seconds',
          type: 'counter',
          samples: [{ value: (cpu.user + cpu.system) / 1e6 }],
        },
        gauge('process_resident_memory_bytes', 'Resident memory size, in bytes', [{ value: memory.rss }]),
        gauge('process_start_time_seconds', 'When the process started, in seconds since the Unix epoch', [
          { value: Math.round(started) },
        ]),
        gauge('nodejs_heap_size_used_bytes', 'V8 heap in use, in bytes', [{ value: memory.heapUsed }]),
        gauge('nodejs_heap_size_total_bytes', 'V8 heap reserved, in bytes', [{ value: memory.heapTotal }]),
        gauge(
          'nodejs_external_memory_bytes',
          'Memory of C++ objects bound to JavaScript (buffers), in bytes',
          [{ value: memory.external }],
        ),
        lag('mean', 'mean', delay.mean),
        lag('max', 'longest', delay.max),
        lag('p50', 'median', delay.percentile(50)),
        lag('p90', '90th percentile', delay.percentile(90)),
        lag('p99', '99th percentile', delay.percentile(99)),
      ];
      delay.reset();
      return families;
    },
  };
}
