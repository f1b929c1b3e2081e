import { beforeEach, describe, expect, it } from 'vitest';
import type { AuditActor } from '../../src/core/actor.js';
import { AppError, conflict, notFound } from '../../src/core/errors.js';
import { ContainerService } from '../../src/modules/containerhost/containers.js';
import type {
  ContainerCreateRequest,
  EngineContainer,
  EngineNetwork,
  EnginePort,
} from '../../src/modules/containerhost/engine-port.js';
import { NetworkService } from '../../src/modules/containerhost/networks.js';
import { VolumeService } from '../../src/modules/containerhost/volumes.js';

// The rules the container-host services keep on top of the engine, against an engine held in memory
// (a double of the gateway's own EnginePort): no Podman. The Podman suites prove the Docker adapter.

const NODE = '00000000-0000-4000-8000-000000000001';
const actor = {} as AuditActor;

interface Box {
  id: string;
  name: string;
  image: string;
  running: boolean;
  networks: Set<string>;
  volumes: string[];
}

/** An engine that keeps containers, networks and volumes in maps and answers as the port promises. */
class MemoryEngine {
  readonly ownHost = true;
  readonly publishedHost = '127.0.0.1';
  readonly timeoutMs = 1000;
  readonly containers = new Map<string, Box>();
  readonly networks = new Map<string, EngineNetwork>([
    ['bridge', { Id: 'bridge', Name: 'bridge', Driver: 'bridge', Scope: 'local' }],
  ]);
  readonly volumes = new Set<string>();
  /** Names of networks a connect to fails (an engine refusing it). */
  readonly refusedNetworks = new Set<string>();
  /** Images a create fails for. */
  readonly refusedImages = new Set<string>();
  private next = 0;

  add(name: string, options: Partial<Box> = {}): Box {
    const box: Box = {
      id: `id-${name}`,
      name,
      image: 'busybox',
      running: false,
      networks: new Set(),
      volumes: [],
      ...options,
    };
    this.containers.set(box.id, box);
    return box;
  }

  private box(id: string): Box {
    const box = this.containers.get(id) ?? [...this.containers.values()].find((b) => b.name === id);
    if (!box) throw notFound({ containerId: id });
    return box;
  }

  async inspectContainer(id: string): Promise<EngineContainer> {
    const box = this.box(id);
    return {
      Id: box.id,
      Name: `/${box.name}`,
      Image: box.image,
      Config: { Image: box.image },
      State: { Status: box.running ? 'running' : 'exited', Running: box.running },
      HostConfig: {},
      NetworkSettings: {
        Networks: Object.fromEntries([...box.networks].map((n) => [n, { NetworkID: n }])),
      },
    };
  }

  async createContainer(request: ContainerCreateRequest) {
    if (this.refusedImages.has(request.Image)) throw notFound({ image: request.Image });
    const name = request.name ?? `c${this.next}`;
    if ([...this.containers.values()].some((b) => b.name === name))
      throw conflict('ENGINE_CONFLICT', { explanation: 'that name is already in use' });
    this.next += 1;
    return { id: this.add(name, { id: `new-${this.next}`, image: request.Image }).id };
  }

  async startContainer(id: string) {
    const box = this.box(id);
    const alreadyRunning = box.running;
    box.running = true;
    return { alreadyRunning };
  }

  async stopContainer(id: string) {
    const box = this.box(id);
    const alreadyStopped = !box.running;
    box.running = false;
    return { alreadyStopped };
  }

  async renameContainer(id: string, name: string) {
    this.box(id).name = name;
  }

  async removeContainer(id: string, options: { force: boolean }) {
    const box = this.box(id);
    if (box.running && !options.force)
      throw conflict('ENGINE_CONFLICT', { explanation: 'container is running' });
    this.containers.delete(box.id);
  }

  async listContainers(filter: { all: boolean; volume?: string }) {
    return [...this.containers.values()]
      .filter((box) => (filter.all || box.running) && (!filter.volume || box.volumes.includes(filter.volume)))
      .map((box) => ({
        Id: box.id,
        Names: [`/${box.name}`],
        Image: box.image,
        ImageID: '',
        State: '',
        Status: '',
      }));
  }

  async connectNetwork(networkId: string, containerId: string) {
    if (this.refusedNetworks.has(networkId)) throw notFound({ networkId });
    this.box(containerId).networks.add(networkId);
  }

  async disconnectNetwork(networkId: string, containerId: string) {
    this.box(containerId).networks.delete(networkId);
  }

  async inspectNetwork(id: string): Promise<EngineNetwork> {
    const network = this.networks.get(id);
    if (!network) throw notFound({ networkId: id });
    const attached = [...this.containers.values()].filter((box) => box.networks.has(id));
    return {
      ...network,
      Containers: Object.fromEntries(attached.map((box) => [box.id, { Name: box.name }])),
    };
  }

  async networkExists(name: string) {
    return this.networks.has(name);
  }

  async createNetwork(spec: { name: string; driver: string }) {
    this.networks.set(spec.name, { Id: spec.name, Name: spec.name, Driver: spec.driver, Scope: 'local' });
    return { id: spec.name };
  }

  async removeNetwork(id: string) {
    this.networks.delete(id);
  }

  async inspectVolume(name: string) {
    if (!this.volumes.has(name)) throw notFound({ volume: name });
    return { Name: name, Driver: 'local', Mountpoint: `/volumes/${name}`, Scope: 'local' };
  }

  async volumeExists(name: string) {
    return this.volumes.has(name);
  }

  async createVolume(spec: { name: string }) {
    this.volumes.add(spec.name);
  }

  async removeVolume(name: string) {
    if ([...this.containers.values()].some((box) => box.volumes.includes(name)))
      throw conflict('ENGINE_CONFLICT', { explanation: 'volume is being used' });
    this.volumes.delete(name);
  }
}

let engine: MemoryEngine;
let events: { action: string; metadata: Record<string, unknown> }[];

function deps() {
  return {
    db: {} as never,
    audit: {
      recordAlone: async (_db: unknown, _actor: unknown, event: (typeof events)[number]) => {
        events.push(event);
        return 'event';
      },
    } as never,
    engineNodes: { engine: async () => ({ engine: engine as unknown as EnginePort }) } as never,
    resources: {
      inspectContainer: async (_nodeId: string, id: string) => ({ id }),
      inspectNetwork: async (_nodeId: string, id: string) => ({ id }),
      inspectVolume: async (_nodeId: string, name: string) => ({ name }),
    } as never,
    puller: {} as never,
  };
}

/** The error a call fails with, as the gateway answers it. */
async function refusal(work: Promise<unknown>) {
  const error = await work.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(AppError);
  return { code: (error as AppError).code, details: (error as AppError).details as Record<string, unknown> };
}

const names = () => [...engine.containers.values()].map((box) => box.name).sort();

beforeEach(() => {
  engine = new MemoryEngine();
  events = [];
});

describe('container lifecycle', () => {
  it('records a stop of a running container as a stop', async () => {
    engine.add('web', { running: true });
    await new ContainerService(deps()).stop(actor, NODE, 'id-web', {});
    expect(engine.containers.get('id-web')?.running).toBe(false);
    expect(events).toEqual([
      expect.objectContaining({
        action: 'containerhost.container.stopped',
        metadata: { nodeId: NODE, timeout: null, alreadyStopped: false },
      }),
    ]);
  });

  it('takes a stop of a stopped container as done, and says so in the audit event', async () => {
    engine.add('web');
    await new ContainerService(deps()).stop(actor, NODE, 'id-web', { timeout: 3 });
    expect(events[0]?.metadata).toEqual({ nodeId: NODE, timeout: 3, alreadyStopped: true });
  });

  it('takes a start of a running container as done, and says so in the audit event', async () => {
    engine.add('web', { running: true });
    await new ContainerService(deps()).start(actor, NODE, 'id-web');
    expect(events[0]?.metadata).toEqual({ nodeId: NODE, alreadyRunning: true });
  });

  it('records nothing when the engine does not know the container', async () => {
    const refused = await refusal(new ContainerService(deps()).start(actor, NODE, 'missing'));
    expect(refused.code).toBe('NOT_FOUND');
    expect(events).toEqual([]);
  });

  it('removes a container created with more networks when one of them cannot be connected', async () => {
    engine.networks.set('front', { Id: 'front', Name: 'front', Driver: 'bridge', Scope: 'local' });
    engine.refusedNetworks.add('back');
    const created = new ContainerService(deps()).create(actor, NODE, {
      name: 'web',
      image: 'busybox',
      networks: ['front', 'back'],
    });
    expect((await refusal(created)).code).toBe('NOT_FOUND');
    expect(names()).toEqual([]);
    expect(events).toEqual([]);
  });
});

describe('recreating a container', () => {
  it('replaces a running container by a started one of the same name and removes the old one', async () => {
    engine.add('web', { running: true });
    await new ContainerService(deps()).recreate(actor, NODE, 'id-web', {});
    const boxes = [...engine.containers.values()];
    expect(boxes).toEqual([expect.objectContaining({ name: 'web', running: true })]);
    expect(boxes[0]?.id).not.toBe('id-web');
    expect(events[0]).toMatchObject({
      action: 'containerhost.container.recreated',
      metadata: { name: 'web', previousId: 'id-web', pulled: false },
    });
  });

  it('leaves a stopped container stopped in its new form', async () => {
    engine.add('web');
    await new ContainerService(deps()).recreate(actor, NODE, 'id-web', {});
    expect([...engine.containers.values()]).toEqual([
      expect.objectContaining({ name: 'web', running: false }),
    ]);
  });

  it('puts the old container back, under its name and running, when the new one cannot be created', async () => {
    engine.add('web', { running: true, image: 'gone' });
    engine.refusedImages.add('gone');
    expect((await refusal(new ContainerService(deps()).recreate(actor, NODE, 'id-web', {}))).code).toBe(
      'NOT_FOUND',
    );
    expect([...engine.containers.values()]).toEqual([
      expect.objectContaining({ id: 'id-web', name: 'web', running: true }),
    ]);
    expect(events).toEqual([]);
  });
});

describe('networks', () => {
  it('refuses a name in use with 409 NETWORK_NAME_TAKEN', async () => {
    engine.networks.set('front', { Id: 'front', Name: 'front', Driver: 'bridge', Scope: 'local' });
    const refused = await refusal(new NetworkService(deps()).create(actor, NODE, { name: 'front' }));
    expect(refused).toEqual({ code: 'CONFLICT', details: { reason: 'NETWORK_NAME_TAKEN', name: 'front' } });
  });

  it('creates a network with a free name', async () => {
    await new NetworkService(deps()).create(actor, NODE, { name: 'front' });
    expect(engine.networks.has('front')).toBe(true);
    expect(events[0]?.action).toBe('containerhost.network.created');
  });

  it('keeps a built-in network', async () => {
    const refused = await refusal(new NetworkService(deps()).remove(actor, NODE, 'bridge'));
    expect(refused.details.reason).toBe('BUILT_IN_NETWORK');
    expect(engine.networks.has('bridge')).toBe(true);
  });

  it('refuses to delete a network containers are attached to, naming them', async () => {
    engine.networks.set('front', { Id: 'front', Name: 'front', Driver: 'bridge', Scope: 'local' });
    engine.add('web', { networks: new Set(['front']) });
    const refused = await refusal(new NetworkService(deps()).remove(actor, NODE, 'front'));
    expect(refused.details).toMatchObject({ reason: 'NETWORK_IN_USE', containers: ['web'] });
  });

  it('deletes a network nothing is attached to', async () => {
    engine.networks.set('front', { Id: 'front', Name: 'front', Driver: 'bridge', Scope: 'local' });
    await new NetworkService(deps()).remove(actor, NODE, 'front');
    expect(engine.networks.has('front')).toBe(false);
  });

  it('refuses to connect a container that is already attached', async () => {
    engine.add('web', { networks: new Set(['bridge']) });
    const refused = await refusal(
      new NetworkService(deps()).connect(actor, NODE, 'bridge', { containerId: 'id-web' }),
    );
    expect(refused.details).toEqual({ reason: 'ALREADY_ATTACHED', network: 'bridge', container: 'web' });
  });

  it('refuses to disconnect a container that is not attached', async () => {
    engine.networks.set('front', { Id: 'front', Name: 'front', Driver: 'bridge', Scope: 'local' });
    engine.add('web');
    const refused = await refusal(
      new NetworkService(deps()).disconnect(actor, NODE, 'front', { containerId: 'id-web', force: false }),
    );
    expect(refused.details.reason).toBe('NOT_ATTACHED');
  });

  it('disconnects from a built-in network only with force', async () => {
    engine.add('web', { networks: new Set(['bridge']) });
    const service = new NetworkService(deps());
    const refused = await refusal(
      service.disconnect(actor, NODE, 'bridge', { containerId: 'id-web', force: false }),
    );
    expect(refused.details.reason).toBe('BUILT_IN_NETWORK');
    await service.disconnect(actor, NODE, 'bridge', { containerId: 'id-web', force: true });
    expect(engine.containers.get('id-web')?.networks.size).toBe(0);
  });
});

describe('volumes', () => {
  it('refuses a name in use with 409 VOLUME_NAME_TAKEN', async () => {
    engine.volumes.add('data');
    const refused = await refusal(new VolumeService(deps()).create(actor, NODE, { name: 'data' }));
    expect(refused).toEqual({ code: 'CONFLICT', details: { reason: 'VOLUME_NAME_TAKEN', name: 'data' } });
  });

  it('leaves the containers of a volume in use alone without force (the engine refuses)', async () => {
    engine.volumes.add('data');
    engine.add('db', { running: true, volumes: ['data'] });
    expect((await refusal(new VolumeService(deps()).remove(actor, NODE, 'data', false))).code).toBe(
      'CONFLICT',
    );
    expect(names()).toEqual(['db']);
  });

  it('with force, removes the containers that use the volume first and names them in the audit event', async () => {
    engine.volumes.add('data');
    engine.add('db', { running: true, volumes: ['data'] });
    engine.add('web', { running: true });
    await new VolumeService(deps()).remove(actor, NODE, 'data', true);
    expect(names()).toEqual(['web']);
    expect(engine.volumes.has('data')).toBe(false);
    expect(events[0]?.metadata).toEqual({ nodeId: NODE, force: true, removedContainers: ['db'] });
  });
});
