import net from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../services/peers.js';
import { eventually } from '../support/eventually.js';
import { expectError } from '../support/expectations.js';
import { auditEventsOf, podmanNodeFor, podmanSuite, registrySkipReason, relayedNodeFor } from './helpers.js';
import { openEventStream } from './stream-clients.js';

// Images pulled from a real registry (the distribution registry with htpasswd auth) by a real engine
// (Podman). The gateway runs with INFRAGATE_EGRESS=private: the registry and the published ports are
// on loopback, reachable only through the one-host rule of a node on a local unix socket.
const suite = podmanSuite();
const { run, names } = suite;

describe.skipIf(Boolean(registrySkipReason))('container hosts against Podman and a registry: images', () => {
  const node = podmanNodeFor(suite, { egress: 'private' }, { registry: true });
  let image: string;
  let login: { username: string; password: string };
  const relayed = relayedNodeFor(node);
  const pull = (body: Record<string, unknown>, nodeId = node.nodeId) =>
    node.gateway.call('POST', `/api/containerhost/nodes/${nodeId}/images/pull`, { body });
  const store = (nodeId = node.nodeId) =>
    node.gateway.call(
      'PUT',
      `/api/containerhost/nodes/${nodeId}/registry-credentials/${node.registry!.address}`,
      {
        body: login,
      },
    );
  const audit = (action: string) => auditEventsOf(node, action);

  beforeAll(async () => {
    const registry = node.registry!;
    login = { username: registry.username, password: registry.password };
    image = await registry.push(node.podman.image, `ig-${run}/busybox:latest`);
    await registry.push(node.podman.image, `ig-${run}/helper:latest`);
  });

  describe('pull (POST …/images/pull)', () => {
    it('answers 422 REGISTRY_AUTH_FAILED when the registry wants credentials and none are given', async () => {
      const result = await pull({ image });
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details.reason).toBe('REGISTRY_AUTH_FAILED');
    });

    it('answers 422 REGISTRY_AUTH_FAILED for wrong credentials', async () => {
      const result = await pull({ image, credentials: { ...login, password: 'wrong' } });
      expect(result.body.details.reason).toBe('REGISTRY_AUTH_FAILED');
    });

    it('pulls with the credentials of the request and answers the image', async () => {
      const result = await pull({ image, credentials: login });
      expect(result.status).toBe(200);
      expect(result.body.data.repoTags).toContain(image);
      expect((await node.podman.docker.getImage(image).inspect()).RepoTags).toContain(image);
    });

    it('pulls with the credentials stored for the node, recording only where they came from', async () => {
      expect((await store()).status).toBe(200);
      expect((await pull({ image })).status).toBe(200);
      const events = await audit('containerhost.image.pulled');
      expect(events.map((event) => event.metadata.credentials)).toEqual(['request', 'stored']);
      expect(JSON.stringify(events)).not.toContain(login.password);
    });

    it('answers 404 for an image the registry does not have', async () => {
      expectError(
        await pull({ image: `${node.registry!.address}/ig-${run}/absent:latest` }),
        404,
        'NOT_FOUND',
      );
    });

    it('streams the progress per layer with Accept: text/event-stream, then the image', async () => {
      const client = await openEventStream(relayed.base, `${node.base()}/images/pull`, {
        token: node.gateway.adminToken,
        method: 'POST',
        body: { image },
      });
      expect(client.status).toBe(200);
      const events = await client.rest();
      const progress = events.filter((event) => event.event === 'progress');
      expect(progress.length).toBeGreaterThan(0);
      expect(progress[0]!.data).toEqual({
        layer: expect.anything(),
        status: expect.any(String),
        current: null,
        total: null,
      });
      expect(events.slice(-2)).toEqual([
        { event: 'pulled', data: expect.objectContaining({ repoTags: expect.arrayContaining([image]) }) },
        { event: 'end', data: {} },
      ]);
    });

    it("closes the engine's pull when the client leaves", async () => {
      // A registry that accepts connections and never answers keeps the pull waiting.
      const silent = net.createServer(() => {});
      const held: net.Socket[] = [];
      silent.on('connection', (socket) => held.push(socket));
      const port = await listenOnLoopback(silent);
      try {
        const client = await openEventStream(
          relayed.base,
          `/api/containerhost/nodes/${relayed.nodeId}/images/pull`,
          {
            token: node.gateway.adminToken,
            method: 'POST',
            body: { image: `127.0.0.1:${port}/silent/app:latest` },
          },
        );
        expect(client.status).toBe(200);
        expect(relayed.relay.openStreams()).toBe(1);
        client.leave();
        await eventually(() => relayed.relay.openStreams() === 0, 'the engine pull to close');
      } finally {
        for (const socket of held) socket.destroy();
        silent.close();
      }
    });
  });

  describe('the one-host rule (INFRAGATE_EGRESS=private, a node on a local unix socket)', () => {
    it('probes a published loopback port of the node', async () => {
      const result = await node.gateway.call(
        'POST',
        `${node.base()}/containers/${names.web}/health-check/test`,
        { body: { hostPort: node.webPort } },
      );
      expect(result.body.data).toMatchObject({ ok: true, status: 'online' });
    });

    it('still refuses a registry on a link-local (metadata) address', async () => {
      const result = await pull({ image: '169.254.169.254/latest/meta:latest' });
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details).toMatchObject({
        reason: 'EGRESS_DENIED',
        rule: expect.stringMatching(/link-local/),
      });
    });
  });

  describe('the helper image of volume files', () => {
    const helperNode = async (helperImage: string) => {
      const created = await node.gateway.call('POST', '/api/containerhost/nodes', {
        body: { name: `helper-${helperImage.split('/').pop()}`, endpoint: node.podman.endpoint, helperImage },
      });
      return created.body.data.id as string;
    };
    const write = (nodeId: string) =>
      node.gateway.call('PUT', `/api/containerhost/nodes/${nodeId}/volumes/${names.volume}/files/write`, {
        body: { path: 'pulled-helper.txt', content: 'via a pulled helper\n' },
      });

    it('is pulled when the node lacks it (with the credentials stored for the node)', async () => {
      const helperImage = `${node.registry!.address}/ig-${run}/helper:latest`;
      const nodeId = await helperNode(helperImage);
      await store(nodeId);
      expect((await write(nodeId)).status).toBe(200);
      expect((await node.podman.docker.getImage(helperImage).inspect()).RepoTags).toContain(helperImage);
    });

    it('answers 422 saying what happened when the pull fails', async () => {
      const nodeId = await helperNode(`${node.registry!.address}/ig-${run}/no-helper:latest`);
      await store(nodeId);
      const result = await write(nodeId);
      expectError(result, 422, 'UNPROCESSABLE_ENTITY');
      expect(result.body.details).toMatchObject({
        reason: 'HELPER_IMAGE_PULL_FAILED',
        explanation: expect.stringMatching(/manifest unknown/),
      });
    });
  });

  describe('recreate with a fresh pull, delete, prune', () => {
    const remove = (imageId: string, query: Record<string, boolean> = {}) =>
      node.gateway.call('DELETE', `${node.base()}/images/${encodeURIComponent(imageId)}`, { query });

    it('re-creates a container after pulling its image again', async () => {
      const made = await node.gateway.call('POST', `${node.base()}/containers`, {
        body: {
          name: `ig-${run}-pulled`,
          image,
          cmd: ['sleep', '600'],
          labels: { 'io.infragate.test': run },
        },
      });
      expect(made.status).toBe(201);
      const result = await node.gateway.call('POST', `${node.base()}/containers/ig-${run}-pulled/recreate`, {
        body: { pull: true },
      });
      expect(result.status).toBe(200);
      expect((await audit('containerhost.container.recreated'))[0]?.metadata).toMatchObject({ pulled: true });
    });

    it("answers 409 with the engine's reason for an image that must be forced out", async () => {
      // By id: the image has several names (and containers); by one of its names it would only be untagged.
      const { Id } = await node.podman.docker.getImage(image).inspect();
      const result = await remove(Id.replace(/^sha256:/, ''));
      expectError(result, 409, 'CONFLICT');
      expect(result.body.details.explanation).toMatch(/force/);
      expect((await node.podman.docker.getImage(Id).inspect()).Id).toBe(Id);
    });

    it('deletes an image reference, and records what the engine untagged and deleted', async () => {
      await node.gateway.call('DELETE', `${node.base()}/containers/ig-${run}-pulled`, {
        query: { force: true },
      });
      const helper = `${node.registry!.address}/ig-${run}/helper:latest`;
      const result = await remove(helper);
      expect(result.status).toBe(200);
      expect(result.body.data.untagged).toContain(helper);
      await expect(node.podman.docker.getImage(helper).inspect()).rejects.toMatchObject({ statusCode: 404 });
      const [event] = await audit('containerhost.image.deleted');
      expect(event).toMatchObject({
        targetType: 'containerhost_image',
        targetId: helper,
        metadata: { nodeId: node.nodeId, force: false, ...result.body.data },
      });
    });

    it('answers 404 for an unknown image', async () => {
      expectError(await remove(`localhost/ig-${run}-none:latest`), 404, 'NOT_FOUND');
    });

    it('prunes dangling images and records it', async () => {
      const result = await node.gateway.call('POST', `${node.base()}/images/prune`);
      expect(result.status).toBe(200);
      expect(result.body.data).toEqual({ deleted: expect.any(Array), spaceReclaimed: expect.any(Number) });
      expect(await audit('containerhost.image.pruned')).toHaveLength(1);
    });
  });
});
