import { describe, expect, it } from 'vitest';
import { HEALTH_JOB } from '../../src/modules/containerhost/health-checks.js';
import { freePort } from '../services/peers.js';
import { expectError } from '../support/expectations.js';
import { podmanNodeFor, podmanSkipReason, podmanSuite, runSavedCheck } from './helpers.js';

// What the gateway reads from a real container engine (Podman's Docker-compatible API): the node, its
// read models, and HTTP(S) health checks of its containers.
const suite = podmanSuite();
const { run, names } = suite;

describe.skipIf(Boolean(podmanSkipReason))('container hosts against Podman: reads and probes', () => {
  const node = podmanNodeFor(suite, { healthCheckHistory: 2 });

  describe('node', () => {
    it('reports the engine as reachable with its version', async () => {
      const result = await node.gateway.call('GET', node.base());
      expect(result.status).toBe(200);
      expect(result.body.data.engine).toMatchObject({ reachable: true, version: expect.any(String) });
      expect(result.body.data.engine.version.length).toBeGreaterThan(0);
    });
  });

  describe('read models', () => {
    it('lists running containers by name with their published ports', async () => {
      const result = await node.gateway.call('GET', `${node.base()}/containers`, { query: { limit: 100 } });
      expect(result.status).toBe(200);
      const web = result.body.data.find((c: { name: string }) => c.name === names.web);
      expect(web).toMatchObject({ state: 'running', resourceKey: names.web });
      expect(web.ports).toContainEqual(
        expect.objectContaining({ privatePort: 8080, publicPort: node.webPort }),
      );
      expect(result.body.data.map((c: { name: string }) => c.name)).not.toContain(names.idle);
    });

    it('includes stopped containers with ?all=true', async () => {
      const result = await node.gateway.call('GET', `${node.base()}/containers`, {
        query: { all: true, q: run, limit: 100 },
      });
      expect(result.body.data.map((c: { name: string }) => c.name)).toContain(names.idle);
    });

    it('pages container listings with the shared pagination envelope', async () => {
      const result = await node.gateway.call('GET', `${node.base()}/containers`, {
        query: { all: true, q: run, limit: 2 },
      });
      expect(result.body.data).toHaveLength(2);
      expect(result.body.pagination).toEqual({ page: 1, limit: 2, total: 4, totalPages: 2 });
    });

    it('inspects a container by name, without its environment', async () => {
      const result = await node.gateway.call('GET', `${node.base()}/containers/${names.web}`);
      expect(result.status).toBe(200);
      expect(result.body.data).toMatchObject({ name: names.web, state: { running: true } });
      expect(result.body.data.networks).toContainEqual(
        expect.objectContaining({ name: names.network, ipAddress: node.webIp }),
      );
      expect(result.body.data).not.toHaveProperty('env');
    });

    it('answers 404 for a container the engine does not know', async () => {
      expectError(
        await node.gateway.call('GET', `${node.base()}/containers/ig-${run}-missing`),
        404,
        'NOT_FOUND',
      );
    });

    it('lists and inspects networks, volumes and images', async () => {
      const networks = await node.gateway.call('GET', `${node.base()}/networks`, { query: { q: run } });
      expect(networks.body.data.map((n: { name: string }) => n.name)).toEqual([names.network]);
      const network = await node.gateway.call('GET', `${node.base()}/networks/${names.network}`);
      expect(network.body.data).toMatchObject({ name: names.network, builtIn: false });

      const volumes = await node.gateway.call('GET', `${node.base()}/volumes`, { query: { q: run } });
      expect(volumes.body.data.map((v: { name: string }) => v.name)).toEqual([names.volume]);
      const volume = await node.gateway.call('GET', `${node.base()}/volumes/${names.volume}`);
      expect(volume.body.data).toMatchObject({ name: names.volume, labels: { 'io.infragate.test': run } });

      const images = await node.gateway.call('GET', `${node.base()}/images`, {
        query: { q: 'infragate-test' },
      });
      expect(images.body.data[0].repoTags).toContain(node.podman.image);
      const image = await node.gateway.call(
        'GET',
        `${node.base()}/images/${encodeURIComponent(node.podman.image)}`,
      );
      expect(image.body.data.repoTags).toContain(node.podman.image);
    });

    it('answers 404 for an unknown network, volume or image', async () => {
      expectError(await node.gateway.call('GET', `${node.base()}/networks/ig-${run}-none`), 404, 'NOT_FOUND');
      expectError(await node.gateway.call('GET', `${node.base()}/volumes/ig-${run}-none`), 404, 'NOT_FOUND');
      expectError(await node.gateway.call('GET', `${node.base()}/images/ig-${run}-none`), 404, 'NOT_FOUND');
    });

    it('lists containers in the order saved by reorder-resources', async () => {
      const reorder = await node.gateway.call('PUT', '/api/containerhost/folders/reorder-resources', {
        body: {
          resourceType: 'container',
          items: [
            { nodeId: node.nodeId, resourceKey: names.sidecar, sortOrder: 1 },
            { nodeId: node.nodeId, resourceKey: names.web, sortOrder: 2 },
            { nodeId: node.nodeId, resourceKey: names.idle, sortOrder: 3 },
          ],
        },
      });
      expect(reorder.status).toBe(200);
      const result = await node.gateway.call('GET', `${node.base()}/containers`, {
        query: { all: true, q: run },
      });
      expect(result.body.data.map((c: { name: string }) => c.name)).toEqual([
        names.sidecar,
        names.web,
        names.idle,
        names.stopper,
      ]);
      expect(result.body.data[0].sortOrder).toBe(1);
      expect(result.body.data[3].sortOrder).toBeNull();
    });
  });

  describe('health-check test (POST …/containers/:containerName/health-check/test)', () => {
    const test = (body?: Record<string, unknown>, container = names.web) =>
      node.gateway.call(
        'POST',
        `${node.base()}/containers/${container}/health-check/test`,
        body ? { body } : {},
      );

    it('reports online for a published port that answers in range with the expected body', async () => {
      const started = performance.now();
      const result = await test({ hostPort: node.webPort, expectedBody: 'hello' });
      const requestMs = performance.now() - started;
      expect(result.status).toBe(200);
      expect(result.body.data).toMatchObject({
        ok: true,
        status: 'online',
        httpStatus: 200,
        slow: false,
        bodyMatched: true,
        url: `http://127.0.0.1:${node.webPort}/`,
      });
      // The probe runs inside the request: it took no longer than the whole request did.
      expect(result.body.data.responseMs).toBeGreaterThanOrEqual(0);
      expect(result.body.data.responseMs).toBeLessThanOrEqual(Math.ceil(requestMs));
      expect(Date.parse(result.body.data.checkedAt)).not.toBeNaN();
    });

    it('probes the first published port when neither port is given', async () => {
      const result = await test();
      expect(result.body.data).toMatchObject({
        ok: true,
        status: 'online',
        url: `http://127.0.0.1:${node.webPort}/`,
      });
      expect(result.body.data.bodyMatched).toBeNull();
    });

    it("probes the container's own address when only containerPort is given", async () => {
      const result = await test({ containerPort: 8080 }, names.sidecar);
      expect(result.body.data).toMatchObject({
        ok: true,
        status: 'online',
        url: `http://${node.sidecarIp}:8080/`,
      });
    });

    it('reports offline when the status is outside statusMin..statusMax', async () => {
      const result = await test({ hostPort: node.webPort, statusMin: 500, statusMax: 599 });
      expect(result.body.data).toMatchObject({ ok: false, status: 'offline', httpStatus: 200 });
      expect(result.body.data.error).toMatch(/outside 500-599/);
    });

    it('reports offline when the body does not match', async () => {
      const result = await test({ hostPort: node.webPort, expectedBody: 'not on the page' });
      expect(result.body.data).toMatchObject({
        ok: false,
        status: 'offline',
        httpStatus: 200,
        bodyMatched: false,
      });
    });

    it('matches the body with exact, starts_with and ends_with', async () => {
      const page = 'infragate test page: hello\n';
      for (const [mode, expectedBody] of [
        ['exact', page],
        ['starts_with', 'infragate test'],
        ['ends_with', 'hello'],
      ]) {
        const result = await test({ hostPort: node.webPort, expectedBody, bodyMatchMode: mode });
        expect({ mode, matched: result.body.data.bodyMatched }).toEqual({ mode, matched: true });
      }
    });

    it('reports degraded and slow when the answer takes longer than slowThreshold', async () => {
      const result = await test({ hostPort: node.webPort, path: '/cgi-bin/slow', slowThreshold: 200 });
      expect(result.body.data).toMatchObject({ ok: true, status: 'degraded', slow: true, httpStatus: 200 });
    });

    it('reports offline when the answer does not come within timeoutSeconds', async () => {
      const result = await test({ hostPort: node.webPort, path: '/cgi-bin/slower', timeoutSeconds: 1 });
      expect(result.body.data).toMatchObject({ ok: false, status: 'offline', httpStatus: null });
      expect(result.body.data.error).toBe('timed out after 1 s');
    });

    it('reports offline with the reason when the port refuses connections', async () => {
      const result = await test({ hostPort: await freePort() });
      expect(result.body.data).toMatchObject({ ok: false, status: 'offline', httpStatus: null });
      expect(result.body.data.error).toBe('connection refused');
    });

    it('answers 404 for an unknown container', async () => {
      expectError(await test({}, `ig-${run}-missing`), 404, 'NOT_FOUND');
    });

    it('reports disabled when the saved check is disabled', async () => {
      const saved = await node.gateway.call(
        'PUT',
        `${node.base()}/containers/${names.stopper}/health-check`,
        {
          body: { enabled: false, hostPort: 1 },
        },
      );
      expect(saved.status).toBe(200);
      const result = await test({}, names.stopper);
      expect(result.body.data).toMatchObject({ ok: false, status: 'disabled' });
    });
  });

  describe('saved health checks', () => {
    it('saves a check with the defaults of the spec table', async () => {
      const result = await node.gateway.call('PUT', `${node.base()}/containers/${names.web}/health-check`, {
        body: { hostPort: node.webPort, expectedBody: 'hello' },
      });
      expect(result.status).toBe(200);
      expect(result.body.data).toMatchObject({
        containerName: names.web,
        enabled: true,
        scheme: 'http',
        path: '/',
        statusMin: 200,
        statusMax: 399,
        bodyMatchMode: 'includes',
        intervalSeconds: 30,
        timeoutSeconds: 5,
        slowThreshold: 1000,
      });
      const read = await node.gateway.call('GET', `${node.base()}/containers/${names.web}/health-check`);
      expect(read.body.data.hostPort).toBe(node.webPort);
    });

    it('runs due checks in the background and keeps their results', async () => {
      await node.gateway.deps.jobs.runNow(HEALTH_JOB);
      const results = await node.gateway.call(
        'GET',
        `${node.base()}/containers/${names.web}/health-check/results`,
      );
      expect(results.status).toBe(200);
      expect(results.body.pagination.total).toBe(1);
      expect(results.body.data[0]).toMatchObject({
        ok: true,
        status: 'online',
        httpStatus: 200,
        bodyMatched: true,
      });
    });

    it('moves a check one interval ahead once it ran, so it does not run again at once', async () => {
      await node.gateway.deps.jobs.runNow(HEALTH_JOB);
      const results = await node.gateway.call(
        'GET',
        `${node.base()}/containers/${names.web}/health-check/results`,
      );
      expect(results.body.pagination.total).toBe(1);
    });

    it('keeps only the last INFRAGATE_HEALTHCHECK_HISTORY results', async () => {
      for (let round = 0; round < 3; round++) await runSavedCheck(node, names.web);
      const results = await node.gateway.call(
        'GET',
        `${node.base()}/containers/${names.web}/health-check/results`,
      );
      expect(results.body.pagination.total).toBe(2);
    });

    it('does not run a disabled check in the background', async () => {
      const results = await node.gateway.call(
        'GET',
        `${node.base()}/containers/${names.stopper}/health-check/results`,
      );
      expect(results.body.pagination.total).toBe(0);
    });
  });
});
