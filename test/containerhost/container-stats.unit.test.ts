import { describe, expect, it } from 'vitest';
import { sampleOf } from '../../src/modules/containerhost/container-stats.js';

// How one reading of the engine's stats stream becomes a sample, without an engine.
type EngineStats = Parameters<typeof sampleOf>[0];

/** Two CPU readings: the container used `used` of the `system` nanoseconds that passed, on `cpus` CPUs. */
const cpu = (used: number, system: number, cpus = 2): EngineStats => ({
  precpu_stats: { cpu_usage: { total_usage: 1_000 }, system_cpu_usage: 50_000, online_cpus: cpus },
  cpu_stats: {
    cpu_usage: { total_usage: 1_000 + used },
    system_cpu_usage: 50_000 + system,
    online_cpus: cpus,
  },
});

describe('the CPU figure of a sample', () => {
  it('is the share of the time that passed, times the CPUs, in percent with two decimals', () => {
    expect(sampleOf(cpu(250, 1_000)).cpuPercent).toBe(50);
    expect(sampleOf(cpu(1, 3_000, 1)).cpuPercent).toBe(0.03);
  });

  it('reaches 100 per CPU when the container uses every CPU all the time', () => {
    expect(sampleOf(cpu(1_000, 1_000, 4)).cpuPercent).toBe(400);
  });

  it('counts the per-CPU readings when the engine does not say how many CPUs are online', () => {
    const stats = cpu(250, 1_000);
    stats.cpu_stats = {
      cpu_usage: { total_usage: 1_250, percpu_usage: [1, 2, 3] },
      system_cpu_usage: 51_000,
    };
    expect(sampleOf(stats).cpuPercent).toBe(75);
  });

  it('is null for the first reading, which has nothing before it to compare with', () => {
    expect(sampleOf({ cpu_stats: cpu(250, 1_000).cpu_stats, precpu_stats: {} }).cpuPercent).toBeNull();
  });

  it('is null when no system time passed or the counter went backwards', () => {
    expect(sampleOf(cpu(250, 0)).cpuPercent).toBeNull();
    expect(sampleOf(cpu(-1, 1_000)).cpuPercent).toBeNull();
  });
});

describe('the other figures of a sample', () => {
  it("leaves the page cache the kernel can drop out of the memory used (cgroup v2's inactive_file, v1's cache)", () => {
    expect(sampleOf({ memory_stats: { usage: 900, stats: { inactive_file: 300 } } }).memoryBytes).toBe(600);
    expect(sampleOf({ memory_stats: { usage: 900, stats: { cache: 200 } } }).memoryBytes).toBe(700);
    expect(sampleOf({ memory_stats: { usage: 100, stats: { inactive_file: 300 } } }).memoryBytes).toBe(0);
  });

  it('answers no memory limit for an unlimited container, whose limit the engine gives as 2^62 or more', () => {
    expect(sampleOf({ memory_stats: { limit: 2 ** 62 } }).memoryLimitBytes).toBeNull();
    expect(sampleOf({ memory_stats: { limit: 2 ** 61 } }).memoryLimitBytes).toBe(2 ** 61);
    expect(sampleOf({ memory_stats: {} }).memoryLimitBytes).toBeNull();
  });

  it('adds up the networks and the block reads and writes', () => {
    const sample = sampleOf({
      networks: { eth0: { rx_bytes: 10, tx_bytes: 1 }, eth1: { rx_bytes: 5, tx_bytes: 2 } },
      blkio_stats: {
        io_service_bytes_recursive: [
          { op: 'Read', value: 100 },
          { op: 'read', value: 20 },
          { op: 'Write', value: 7 },
          { op: 'Total', value: 127 },
        ],
      },
    });
    expect(sample).toMatchObject({
      networkRxBytes: 15,
      networkTxBytes: 3,
      blockReadBytes: 120,
      blockWriteBytes: 7,
    });
  });

  it("keeps the engine's reading time, but not the zero time of a container that is not running", () => {
    expect(sampleOf({ read: '2026-11-25T01:08:29.123Z' }).readAt).toBe('2026-11-25T01:08:29.123Z');
    expect(sampleOf({ read: '0001-01-01T00:00:00Z' }).readAt).toBeNull();
  });
});
