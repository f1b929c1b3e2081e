/**
 * Overhead of the gateway on two container-host actions, against the same work done directly with
 * dockerode in the same run, on a real Podman engine (loopback only):
 *   - stop (endpoint 22) of a running container, and of one already stopped (engine answers 304);
 *   - health-check test (endpoint 10): container inspect + one HTTP probe of its published port.
 * Run: npx tsx bench/containerhost-actions.ts   (needs podman, runc and busybox-static)
 */
import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { fetch } from 'undici';
import { podmanBinaries, removeLabelled, startPodman } from '../test/services/podman.js';
import { startBenchGateway } from './support/gateway.js';

const STOP_RUNS = 12;
const STOPPED_RUNS = 100;
const PROBE_RUNS = 200;

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { median: at(0.5), p95: at(0.95) };
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function main() {
  const binaries = podmanBinaries();
  if (binaries.skipReason) throw new Error(binaries.skipReason);
  const podman = await startPodman();
  const run = crypto.randomBytes(3).toString('hex');
  const label = `io.infragate.bench=${run}`;
  const { app, token, close } = await startBenchGateway();
  try {
    const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const text = await response.text();
      if (response.status !== 200 && response.status !== 201)
        throw new Error(`${method} ${path}: ${response.status} ${text}`);
      return JSON.parse(text);
    };
    const node = await call('POST', '/api/containerhost/nodes', { name: 'bench', endpoint: podman.endpoint });
    const nodeId = node.data.id as string;

    const { docker, image } = podman;
    const web = await docker.createContainer({
      name: `ig-bench-${run}-web`,
      Image: image,
      Cmd: ['/bin/httpd', '-f', '-p', '8080', '-h', '/www'],
      Labels: { 'io.infragate.bench': run },
      ExposedPorts: { '8080/tcp': {} },
      HostConfig: { PortBindings: { '8080/tcp': [{ HostIp: '127.0.0.1', HostPort: '0' }] } },
    });
    await web.start();
    const hostPort = Number((await web.inspect()).NetworkSettings.Ports['8080/tcp']![0]!.HostPort);
    const victim = await docker.createContainer({
      name: `ig-bench-${run}-stop`,
      Image: image,
      Cmd: ['/bin/sleep', '3600'],
      Labels: { 'io.infragate.bench': run },
    });

    // Stop of a running container (engine work dominates), interleaved direct / gateway.
    const stopDirect: number[] = [];
    const stopGateway: number[] = [];
    for (let i = 0; i < STOP_RUNS; i++) {
      await victim.start();
      stopDirect.push(await timed(() => victim.stop({ t: 0 })));
      await victim.start();
      stopGateway.push(
        await timed(() =>
          call('POST', `/api/containerhost/nodes/${nodeId}/containers/${victim.id}/stop`, { timeout: 0 }),
        ),
      );
    }
    // Stop of an already stopped container: the engine answers 304 at once, so this is mostly overhead.
    const stoppedDirect: number[] = [];
    const stoppedGateway: number[] = [];
    for (let i = 0; i < STOPPED_RUNS; i++) {
      stoppedDirect.push(await timed(() => victim.stop({ t: 0 }).catch(() => undefined)));
      stoppedGateway.push(
        await timed(() =>
          call('POST', `/api/containerhost/nodes/${nodeId}/containers/${victim.id}/stop`, { timeout: 0 }),
        ),
      );
    }
    // Health-check test: the same inspect + HTTP GET done directly, and through the gateway.
    const probeDirect: number[] = [];
    const probeGateway: number[] = [];
    for (let i = 0; i < PROBE_RUNS; i++) {
      probeDirect.push(
        await timed(async () => {
          await web.inspect();
          const response = await fetch(`http://127.0.0.1:${hostPort}/`, {
            signal: AbortSignal.timeout(5000),
          });
          await response.text();
        }),
      );
      probeGateway.push(
        await timed(async () => {
          const result = await call(
            'POST',
            `/api/containerhost/nodes/${nodeId}/containers/${web.id}/health-check/test`,
            {
              hostPort,
              expectedBody: 'hello',
            },
          );
          if (!result.data.ok) throw new Error(`probe failed: ${JSON.stringify(result.data)}`);
        }),
      );
    }

    // The gateway's own floor: an authenticated request that does one database read and nothing else.
    const floor: number[] = [];
    for (let i = 0; i < PROBE_RUNS; i++) floor.push(await timed(() => call('GET', '/auth/me')));

    const rows = [
      ['stop (running → stopped)', STOP_RUNS, summary(stopDirect), summary(stopGateway)],
      ['stop (already stopped, 304)', STOPPED_RUNS, summary(stoppedDirect), summary(stoppedGateway)],
      ['health-check test (inspect + GET)', PROBE_RUNS, summary(probeDirect), summary(probeGateway)],
    ] as const;
    console.log('| action | runs | direct median / p95 (ms) | gateway median / p95 (ms) | ratio (median) |');
    console.log('|---|---|---|---|---|');
    for (const [name, runs, direct, gateway] of rows)
      console.log(
        `| ${name} | ${runs} | ${direct.median.toFixed(1)} / ${direct.p95.toFixed(1)} | ${gateway.median.toFixed(1)} / ${gateway.p95.toFixed(1)} | ${(gateway.median / direct.median).toFixed(2)}x |`,
      );
    console.log(
      `gateway floor (GET /auth/me): median ${summary(floor).median.toFixed(1)} ms, p95 ${summary(floor).p95.toFixed(1)} ms`,
    );
  } finally {
    await removeLabelled(podman.docker, label).catch(() => {});
    await close();
    await podman.stop();
  }
}

await main();
