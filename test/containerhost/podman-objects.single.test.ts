import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/expectations.js';
import { auditEventsOf, podmanNodeFor, podmanSkipReason, podmanSuite } from './helpers.js';

// Volumes and networks created, deleted and connected on a real engine (Podman), each change checked
// through Podman itself.
const suite = podmanSuite();
const { run, names } = suite;
const labels = { 'io.infragate.test': run };
const name = (what: string) => `ig-${run}-${what}`;

describe.skipIf(Boolean(podmanSkipReason))('container hosts against Podman: volumes and networks', () => {
  const node = podmanNodeFor(suite);
  const audit = (action: string) => auditEventsOf(node, action);
  /** The one event of `action` about `targetId`: target and metadata. */
  const recordedFor = async (action: string, targetId: string) =>
    (await audit(action))
      .filter((event) => event.targetId === targetId)
      .map(({ targetType, metadata }) => ({ targetType, metadata }));
  const missing = (promise: Promise<unknown>) => expect(promise).rejects.toMatchObject({ statusCode: 404 });

  describe('volumes (POST …/volumes, DELETE …/volumes/:name)', () => {
    const create = (body: Record<string, unknown>) =>
      node.gateway.call('POST', `${node.base()}/volumes`, { body: { labels, ...body } });
    const remove = (volume: string, query: Record<string, boolean> = {}) =>
      node.gateway.call('DELETE', `${node.base()}/volumes/${volume}`, { query });
    const volume = (volumeName: string) => node.podman.docker.getVolume(volumeName).inspect();

    beforeAll(async () => {
      await create({ name: name('used') });
      await node.podman.docker.createContainer({
        name: name('user'),
        Image: node.podman.image,
        Cmd: ['sleep', '600'],
        Labels: labels,
        HostConfig: { Binds: [`${name('used')}:/used`] },
      });
    });

    it('creates a volume with its labels, and records it', async () => {
      const result = await create({ name: name('made'), labels: { ...labels, tier: 'db' } });
      expect(result.status).toBe(201);
      expect(result.body.data).toMatchObject({ name: name('made'), driver: 'local', labels: { tier: 'db' } });
      expect((await volume(name('made'))).Labels).toMatchObject({ tier: 'db' });
      expect(await recordedFor('containerhost.volume.created', name('made'))).toEqual([
        { targetType: 'containerhost_volume', metadata: { nodeId: node.nodeId, driver: 'local' } },
      ]);
    });

    it('answers 409 when the name is taken', async () => {
      const result = await create({ name: name('made') });
      expectError(result, 409, 'CONFLICT');
      expect(result.body.details).toEqual({ reason: 'VOLUME_NAME_TAKEN', name: name('made') });
    });

    it('deletes an unused volume', async () => {
      expect((await remove(name('made'))).body).toEqual({ success: true });
      await missing(volume(name('made')));
    });

    it("answers 409 with the engine's reason while a container uses it, and keeps it", async () => {
      const result = await remove(name('used'));
      expectError(result, 409, 'CONFLICT');
      expect(result.body.details.explanation).toMatch(/being used/);
      expect((await volume(name('used'))).Name).toBe(name('used'));
    });

    it('removes the containers using it first with ?force=true', async () => {
      expect((await remove(name('used'), { force: true })).status).toBe(200);
      await missing(volume(name('used')));
      await missing(node.podman.docker.getContainer(name('user')).inspect());
      const [event] = await audit('containerhost.volume.deleted').then((all) =>
        all.filter((e) => e.targetId === name('used')),
      );
      expect(event?.metadata).toMatchObject({ force: true, removedContainers: [name('user')] });
    });

    it('answers 404 for an unknown volume', async () => {
      expectError(await remove(name('none')), 404, 'NOT_FOUND');
    });
  });

  describe('networks (POST …/networks, DELETE …/networks/:networkId, POST …/connect)', () => {
    const create = (body: Record<string, unknown>) =>
      node.gateway.call('POST', `${node.base()}/networks`, { body: { labels, ...body } });
    const connect = (network: string, body: Record<string, unknown>) =>
      node.gateway.call('POST', `${node.base()}/networks/${network}/connect`, { body });
    const remove = (network: string) => node.gateway.call('DELETE', `${node.base()}/networks/${network}`);
    const network = (networkName: string) => node.podman.docker.getNetwork(networkName).inspect();

    it('creates an internal network with its subnet and labels, and records it', async () => {
      const result = await create({ name: name('lan'), internal: true, subnet: '10.89.77.0/24' });
      expect(result.status).toBe(201);
      expect(await recordedFor('containerhost.network.created', result.body.data.id)).toEqual([
        {
          targetType: 'containerhost_network',
          metadata: {
            nodeId: node.nodeId,
            name: name('lan'),
            driver: 'bridge',
            internal: true,
            subnet: '10.89.77.0/24',
          },
        },
      ]);
      expect(result.body.data).toMatchObject({
        name: name('lan'),
        internal: true,
        subnets: ['10.89.77.0/24'],
      });
      const made = await network(name('lan'));
      expect(made.Internal).toBe(true);
      expect(made.IPAM?.Config?.[0]?.Subnet).toBe('10.89.77.0/24');
    });

    it('answers 409 when the name is taken', async () => {
      const result = await create({ name: name('lan') });
      expectError(result, 409, 'CONFLICT');
      expect(result.body.details.reason).toBe('NETWORK_NAME_TAKEN');
    });

    it('connects a container with its aliases, and records it', async () => {
      const result = await connect(name('lan'), { containerId: names.web, aliases: ['api'] });
      expect(result.body).toEqual({ success: true });
      const web = await node.podman.docker.getContainer(names.web).inspect();
      expect(web.NetworkSettings.Networks[name('lan')]?.Aliases).toContain('api');
      const { Id } = await network(name('lan'));
      expect(await recordedFor('containerhost.network.connected', Id)).toEqual([
        {
          targetType: 'containerhost_network',
          metadata: {
            nodeId: node.nodeId,
            network: name('lan'),
            containerId: web.Id,
            container: names.web,
            aliases: ['api'],
          },
        },
      ]);
    });

    it('answers 409 when the container is attached already', async () => {
      const result = await connect(name('lan'), { containerId: names.web });
      expectError(result, 409, 'CONFLICT');
      expect(result.body.details.reason).toBe('ALREADY_ATTACHED');
    });

    it('answers 404 for an unknown network or container', async () => {
      expectError(await connect(name('none'), { containerId: names.web }), 404, 'NOT_FOUND');
      expectError(await connect(name('lan'), { containerId: name('missing') }), 404, 'NOT_FOUND');
    });

    it('answers 409 to deleting a network containers are attached to', async () => {
      const result = await remove(name('lan'));
      expectError(result, 409, 'CONFLICT');
      expect(result.body.details).toMatchObject({ reason: 'NETWORK_IN_USE', containers: [names.web] });
    });

    it('deletes a network once nothing is attached', async () => {
      await node.gateway.call('POST', `${node.base()}/networks/${name('lan')}/disconnect`, {
        body: { containerId: names.web },
      });
      expect((await remove(name('lan'))).body).toEqual({ success: true });
      await missing(network(name('lan')));
      expect((await audit('containerhost.network.deleted')).map((e) => e.metadata.name)).toEqual([
        name('lan'),
      ]);
    });

    it('refuses to delete a built-in network with 422', async () => {
      const result = await remove('bridge');
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('BUILT_IN_NETWORK');
    });

    it('answers 404 for an unknown network', async () => {
      expectError(await remove(name('none')), 404, 'NOT_FOUND');
    });
  });
});
