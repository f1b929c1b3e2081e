import crypto from 'node:crypto';
import type Docker from 'dockerode';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Config } from '../../src/config.js';
import { auditEvents, containerhostHealthChecks } from '../../src/db/schema/index.js';
import { HEALTH_JOB } from '../../src/modules/containerhost/health-checks.js';
import { type RegistryPeer, registryBinaries, startRegistry } from '../services/docker-registry.js';
import { type EngineRelay, startEngineRelay } from '../services/engine-relay.js';
import { type PodmanPeer, podmanBinaries, removeLabelled, startPodman } from '../services/podman.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

/** Why the Podman suites skip on this machine (no podman, runc or busybox), else undefined. */
export const podmanSkipReason = podmanBinaries().skipReason;
if (podmanSkipReason) console.warn(`skipping the Podman suite: ${podmanSkipReason}`);

/** Why the suites that pull from a registry skip (no Podman, or no docker-registry/htpasswd), else undefined. */
export const registrySkipReason = podmanSkipReason ?? registryBinaries().skipReason;

/** A suite's engine objects: every name holds the suite's random run id, so suites never collide. */
export interface PodmanSuite {
  run: string;
  names: { network: string; volume: string; web: string; stopper: string; sidecar: string; idle: string };
}

export function podmanSuite(): PodmanSuite {
  const run = crypto.randomBytes(3).toString('hex');
  const name = (what: string) => `ig-${run}-${what}`;
  return {
    run,
    names: {
      network: name('net'),
      volume: name('vol'),
      web: name('web'),
      stopper: name('stopper'),
      sidecar: name('sidecar'),
      idle: name('idle'),
    },
  };
}

/** A Podman engine registered as the node `podman` of a fresh gateway, with the suite's objects on it. */
export interface PodmanNode {
  podman: PodmanPeer;
  gateway: TestGateway;
  nodeId: string;
  /** The host port web's 8080 is published on. */
  webPort: number;
  webIp: string;
  sidecarIp: string;
  /** The registry the engine may pull from (when the suite asked for one), holding the test image. */
  registry: RegistryPeer | undefined;
  /** `/api/containerhost/nodes/<nodeId>` */
  base(): string;
  close(): Promise<void>;
}

/**
 * Starts Podman and a gateway, then creates the suite's network and volume and four containers: web
 * and stopper (httpd, 8080 published on loopback), sidecar (httpd, unpublished), all three running on
 * the network with the volume at /data; and idle, created but never started.
 */
async function startPodmanNode(
  { run, names }: PodmanSuite,
  overrides: Partial<Config>,
  options: PodmanNodeOptions,
): Promise<PodmanNode> {
  const registry = options.registry ? await startRegistry() : undefined;
  const [podman, gateway] = await Promise.all([
    startPodman({ insecureRegistries: registry ? [registry.address] : [] }),
    startTestGateway(overrides),
  ]);
  const close = async () => {
    await removeLabelled(podman.docker, `io.infragate.test=${run}`).catch(() => {});
    await Promise.all([gateway.close(), podman.stop(), registry?.stop()]);
  };
  try {
    const { docker, image } = podman;
    const labels = { 'io.infragate.test': run };
    await Promise.all([
      docker.createNetwork({ Name: names.network, Labels: labels }),
      docker.createVolume({ Name: names.volume, Labels: labels }),
    ]);
    const httpd = (name: string, publish: boolean) =>
      docker.createContainer({
        name,
        Image: image,
        Cmd: ['/bin/httpd', '-f', '-p', '8080', '-h', '/www'],
        Labels: labels,
        ExposedPorts: { '8080/tcp': {} },
        HostConfig: {
          NetworkMode: names.network,
          Binds: [`${names.volume}:/data`],
          ...(publish ? { PortBindings: { '8080/tcp': [{ HostIp: '127.0.0.1', HostPort: '0' }] } } : {}),
        },
      });
    const created = await Promise.all([
      httpd(names.web, true),
      httpd(names.stopper, true),
      httpd(names.sidecar, false),
      docker.createContainer({ name: names.idle, Image: image, Cmd: ['/bin/true'], Labels: labels }),
    ]);
    await Promise.all(created.slice(0, 3).map((c) => c.start()));
    const web = await docker.getContainer(names.web).inspect();
    const sidecar = await docker.getContainer(names.sidecar).inspect();

    const node = await gateway.call('POST', '/api/containerhost/nodes', {
      body: { name: 'podman', endpoint: podman.endpoint, helperImage: image },
    });
    expect(node.status).toBe(201);
    const nodeId: string = node.body.data.id;
    return {
      podman,
      gateway,
      nodeId,
      webPort: Number(web.NetworkSettings.Ports['8080/tcp']![0]!.HostPort),
      webIp: web.NetworkSettings.Networks[names.network]!.IPAddress,
      sidecarIp: sidecar.NetworkSettings.Networks[names.network]!.IPAddress,
      registry,
      base: () => `/api/containerhost/nodes/${nodeId}`,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

export interface PodmanNodeOptions {
  /** Start a docker-registry on loopback first (the engine may pull from it over plain HTTP). */
  registry?: boolean;
}

/** The suite's Podman node, started before its tests and removed after them; read it inside tests. */
export function podmanNodeFor(
  suite: PodmanSuite,
  overrides: Partial<Config> = {},
  options: PodmanNodeOptions = {},
): PodmanNode {
  const node = {} as PodmanNode;
  beforeAll(async () => {
    Object.assign(node, await startPodmanNode(suite, overrides, options));
  });
  afterAll(async () => {
    await node.close?.();
  });
  return node;
}

/** The audit events of one action that the suite's gateway recorded, in the order it recorded them. */
export function auditEventsOf(node: { gateway: TestGateway }, action: string) {
  return node.gateway.deps.db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.action, action))
    .orderBy(asc(auditEvents.entry));
}

/** The target and metadata of the last event of `action` (what a test compares; no ids or times). */
export async function lastAuditedAs(node: { gateway: TestGateway }, action: string) {
  const event = (await auditEventsOf(node, action)).at(-1);
  return event && { targetType: event.targetType, targetId: event.targetId, metadata: event.metadata };
}

/** Runs a command in a container directly on the engine, for setting up and checking. */
export async function execIn(
  docker: Docker,
  container: string,
  cmd: string[],
): Promise<{ exitCode: number; output: string }> {
  const exec = await docker
    .getContainer(container)
    .exec({ Cmd: cmd, AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({ hijack: true, stdin: false });
  const chunks: Buffer[] = [];
  const sink = { write: (chunk: Buffer) => chunks.push(chunk) };
  docker.modem.demuxStream(stream, sink as never, sink as never);
  await new Promise((resolve) => stream.on('end', resolve));
  const info = await exec.inspect();
  return { exitCode: info.ExitCode ?? -1, output: Buffer.concat(chunks).toString('utf8') };
}

/** A gateway with a node whose socket does not exist: requests that pass validation answer 422 at the engine. */
export interface OfflineNode {
  gateway: TestGateway;
  nodeId: string;
  /** Tokens holding containerhost:view only, and no scope at all. */
  viewer: string;
  nobody: string;
}

/** The suite's offline node, made before its tests; read it inside tests. */
export function offlineNodeFor(overrides: Partial<Config> = {}): OfflineNode {
  const offline = {} as OfflineNode;
  beforeAll(async () => {
    offline.gateway = await startTestGateway(overrides);
    const node = await offline.gateway.call('POST', '/api/containerhost/nodes', {
      body: { name: 'offline', endpoint: 'unix:///run/infragate-test/none.sock' },
    });
    offline.nodeId = node.body.data.id;
    [offline.viewer, offline.nobody] = await Promise.all([
      offline.gateway.tokenWithScopes(['containerhost:view']),
      offline.gateway.tokenWithScopes([]),
    ]);
  });
  afterAll(() => offline.gateway?.close());
  return offline;
}

/** The suite's gateway listening on loopback, and a second node reaching its engine through a relay. */
export interface RelayedNode {
  /** The gateway's base URL, for clients on real sockets. */
  base: string;
  /** Counts the engine's open stream connections of the relayed node. */
  relay: EngineRelay;
  nodeId: string;
}

export function relayedNodeFor(node: PodmanNode): RelayedNode {
  const relayed = {} as RelayedNode;
  beforeAll(async () => {
    relayed.base = await node.gateway.listen();
    relayed.relay = await startEngineRelay(node.podman.socketPath);
    const created = await node.gateway.call('POST', '/api/containerhost/nodes', {
      body: { name: 'relayed', endpoint: relayed.relay.endpoint },
    });
    relayed.nodeId = created.body.data.id;
  });
  afterAll(() => relayed.relay?.close());
  return relayed;
}

/** Makes the saved health check of a container due now and runs the background job once. */
export async function runSavedCheck(node: PodmanNode, containerName: string): Promise<void> {
  await node.gateway.deps.db
    .update(containerhostHealthChecks)
    .set({ nextRunAt: new Date(Date.now() - 1000) })
    .where(eq(containerhostHealthChecks.containerName, containerName));
  await node.gateway.deps.jobs.runNow(HEALTH_JOB);
}
