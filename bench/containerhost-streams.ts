/**
 * The gateway's streams against the same work done directly with dockerode, in one run, on a real
 * Podman engine (loopback only):
 *   - logs follow: a container writes lines as fast as it can; its log is followed live for N lines from
 *     the first, directly (dockerode, demultiplexed) and through the gateway (Server-Sent Events over
 *     HTTP). Throughput in lines/s, and the ratio.
 *   - terminal round trip: one byte typed into `cat` on a TTY until its echo comes back, directly on a
 *     hijacked exec attach and through the gateway's terminal WebSocket. Median and p95, and the ratio.
 * The machine is shared and noisy: the load average is printed before and after.
 * Run: npx tsx bench/containerhost-streams.ts [lines=200000] [roundTrips=300]
 */
import crypto from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { type Duplex, PassThrough } from 'node:stream';
import WebSocket from 'ws';
import { podmanBinaries, removeLabelled, startPodman } from '../test/services/podman.js';
import { startBenchGateway } from './support/gateway.js';

const LINES = Number(process.argv[2] ?? 200_000);
const ROUND_TRIPS = Number(process.argv[3] ?? 300);
const REPEATS = 3;

const summary = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { median: at(0.5), p95: at(0.95) };
};
const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/** Reads the gateway's SSE stream until `lines` log events came; answers the seconds from the first. */
function followThroughGateway(url: string, token: string, lines: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let started = 0;
    let seen = 0;
    let rest = '';
    const request = http.get(url, {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    });
    request.on('error', (error) => (seen < lines ? reject(error) : undefined));
    request.on('response', (response) => {
      if (response.statusCode !== 200) reject(new Error(`logs follow: ${response.statusCode}`));
      response.setEncoding('utf8');
      response.on('data', (text: string) => {
        const blocks = (rest + text).split('\n\n');
        rest = blocks.pop()!;
        for (const block of blocks) if (block.startsWith('event: log')) seen += 1;
        started ||= performance.now();
        if (seen >= lines) {
          resolve((performance.now() - started) / 1000);
          request.destroy();
        }
      });
    });
  });
}

async function main() {
  const binaries = podmanBinaries();
  if (binaries.skipReason) throw new Error(binaries.skipReason);
  console.log(`load average before: ${loadAverage()} (${os.cpus().length} cores)`);
  const podman = await startPodman();
  const run = crypto.randomBytes(3).toString('hex');
  const labels = { 'io.infragate.bench': run };
  const { app, token, close } = await startBenchGateway();
  try {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const node = await app.inject({
      method: 'POST',
      url: '/api/containerhost/nodes',
      headers: { authorization: `Bearer ${token}` },
      payload: { name: 'bench', endpoint: podman.endpoint },
    });
    const nodeId = node.json().data.id as string;
    const { docker, image } = podman;

    // Logs follow: a fresh writer per run, followed live for LINES lines from its first, then left (a
    // follow ending with the container would lose lines: Podman stops reading its log at the exit).
    const writer = async (n: number) => {
      const container = await docker.createContainer({
        name: `ig-bench-${run}-writer-${n}`,
        Image: image,
        Cmd: ['sh', '-c', 'sleep 1; seq 1 1000000000'],
        Labels: labels,
      });
      await container.start();
      return container;
    };
    const direct: number[] = [];
    const gateway: number[] = [];
    const cpu = { direct: [] as number[], gateway: [] as number[] };
    // CPU time of this process (client and, for the gateway, the gateway too) per 100k lines.
    const cpuPer100k = (since: NodeJS.CpuUsage) => {
      const used = process.cpuUsage(since);
      return ((used.user + used.system) / 1000) * (100_000 / LINES);
    };
    for (let i = 0; i < REPEATS; i++) {
      const followed = await writer(2 * i);
      const directCpu = process.cpuUsage();
      const stream = (await followed.logs({ follow: true, stdout: true, stderr: true })) as unknown as Duplex;
      const out = new PassThrough();
      const seconds = await new Promise<number>((resolve) => {
        let lines = 0;
        let first = 0;
        out.on('data', (chunk: Buffer) => {
          first ||= performance.now();
          for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
          if (lines >= LINES) resolve((performance.now() - first) / 1000);
        });
        docker.modem.demuxStream(stream, out, out);
      });
      stream.destroy();
      direct.push(LINES / seconds);
      cpu.direct.push(cpuPer100k(directCpu));
      await followed.remove({ force: true });
      const viaGateway = await writer(2 * i + 1);
      const url = `${base}/api/containerhost/nodes/${nodeId}/containers/${viaGateway.id}/logs?follow=true&tail=1&timestamps=false`;
      const gatewayCpu = process.cpuUsage();
      gateway.push(LINES / (await followThroughGateway(url, token, LINES)));
      cpu.gateway.push(cpuPer100k(gatewayCpu));
      await viaGateway.remove({ force: true });
    }
    const best = (rates: number[]) => Math.max(...rates);
    console.log(`\nlogs follow, ${LINES} lines per run, best of ${REPEATS}`);
    const cpuMedian = (samples: number[]) => summary(samples).median.toFixed(0);
    console.log('| path | lines/s (best) | all runs | ratio | CPU ms per 100k lines (median) |');
    console.log('|---|---|---|---|---|');
    console.log(
      `| dockerode, direct | ${best(direct).toFixed(0)} | ${direct.map((r) => r.toFixed(0)).join(', ')} | 1.00 | ${cpuMedian(cpu.direct)} |`,
    );
    console.log(
      `| gateway, SSE | ${best(gateway).toFixed(0)} | ${gateway.map((r) => r.toFixed(0)).join(', ')} | ${(best(gateway) / best(direct)).toFixed(2)} | ${cpuMedian(cpu.gateway)} |`,
    );

    // Terminal round trip: one byte into `cat` on a TTY until the line discipline echoes it.
    const echo = await docker.createContainer({
      name: `ig-bench-${run}-echo`,
      Image: image,
      Cmd: ['sleep', '3600'],
      Labels: labels,
    });
    await echo.start();
    const exec = await echo.exec({ Cmd: ['cat'], AttachStdin: true, AttachStdout: true, Tty: true });
    const attached = (await exec.start({ hijack: true, stdin: true, Tty: true })) as Duplex;
    const directTrips = await roundTrips(
      (byte) => attached.write(byte),
      (listener) => attached.on('data', listener),
    );
    attached.destroy();
    const ws = new WebSocket(
      `${base.replace(/^http/, 'ws')}/api/containerhost/nodes/${nodeId}/containers/${echo.id}/terminal?cmd=cat`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const gatewayTrips = await roundTrips(
      (byte) => ws.send(byte, { binary: true }),
      (listener) => ws.on('message', (data: Buffer, isBinary: boolean) => isBinary && listener(data)),
    );
    ws.close();
    const d = summary(directTrips);
    const g = summary(gatewayTrips);
    console.log(`\nterminal round trip (one byte, echoed by the TTY), ${ROUND_TRIPS} trips`);
    console.log('| path | median (ms) | p95 (ms) | ratio (median) |');
    console.log('|---|---|---|---|');
    console.log(`| exec attach, direct | ${d.median.toFixed(2)} | ${d.p95.toFixed(2)} | 1.00 |`);
    console.log(
      `| gateway WebSocket | ${g.median.toFixed(2)} | ${g.p95.toFixed(2)} | ${(g.median / d.median).toFixed(2)} |`,
    );
  } finally {
    await removeLabelled(podman.docker, `io.infragate.bench=${run}`).catch(() => {});
    await close();
    await podman.stop();
    console.log(`\nload average after: ${loadAverage()}`);
  }
}

/** Types one letter at a time and times each until its echo arrives (the first trips warm up). */
async function roundTrips(
  send: (byte: Buffer) => void,
  onOutput: (listener: (data: Buffer) => void) => void,
): Promise<number[]> {
  let waiting: ((data: Buffer) => void) | undefined;
  onOutput((data) => waiting?.(data));
  const times: number[] = [];
  for (let i = 0; i < ROUND_TRIPS + 20; i++) {
    const letter = String.fromCharCode(97 + (i % 26));
    const started = performance.now();
    await new Promise<void>((resolve) => {
      waiting = (data) => {
        if (data.includes(letter)) resolve();
      };
      send(Buffer.from(letter));
    });
    if (i >= 20) times.push(performance.now() - started);
  }
  return times;
}

await main();
