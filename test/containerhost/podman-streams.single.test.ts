import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { expectError } from '../support/expectations.js';
import { podmanNodeFor, podmanSkipReason, podmanSuite, relayedNodeFor } from './helpers.js';
import { openEventStream } from './stream-clients.js';

// A container's logs and statistics from a real engine (Podman), as JSON and as Server-Sent Events over
// a real socket; a relay in front of the engine shows the engine's side of a stream closing when the
// client leaves.
const suite = podmanSuite();
const { run, names } = suite;
const labels = { 'io.infragate.test': run };
const talker = `ig-${run}-talker`;
const quiet = `ig-${run}-quiet`;

describe.skipIf(Boolean(podmanSkipReason))('container hosts against Podman: logs and stats', () => {
  const node = podmanNodeFor(suite);
  const relayed = relayedNodeFor(node);

  beforeAll(async () => {
    const { docker, image } = node.podman;
    const create = (name: string, script: string) =>
      docker.createContainer({ name, Image: image, Cmd: ['sh', '-c', script], Labels: labels });
    const containers = await Promise.all([
      create(
        talker,
        'echo out-1; echo err-1 >&2; echo out-2; i=0; while true; do i=$((i+1)); echo tick-$i; sleep 0.2; done',
      ),
      create(quiet, 'echo begin; sleep 600'),
    ]);
    await Promise.all(containers.map((c) => c.start()));
  });

  const logs = (container: string, query: Record<string, string | number | boolean> = {}) =>
    node.gateway.call('GET', `${node.base()}/containers/${container}/logs`, { query });
  const stream = (nodeId: string, tail: string) =>
    openEventStream(relayed.base, `/api/containerhost/nodes/${nodeId}/containers/${tail}`, {
      token: node.gateway.adminToken,
    });

  describe('logs (GET …/containers/:containerId/logs)', () => {
    it('answers stdout and stderr lines demultiplexed, each with its timestamp', async () => {
      const result = await eventually(async () => {
        const answer = await logs(talker, { tail: 'all' });
        return answer.body.data.length >= 3 ? answer : undefined;
      });
      expect(result.status).toBe(200);
      expect(result.body.truncated).toBe(false);
      // The engine keeps each stream's order; how the two interleave within a second is its own.
      const timestamp = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
      expect(result.body.data).toEqual(
        expect.arrayContaining([
          { stream: 'stdout', timestamp, line: 'out-1' },
          { stream: 'stderr', timestamp, line: 'err-1' },
          { stream: 'stdout', timestamp, line: 'out-2' },
        ]),
      );
    });

    it('keeps the last lines with ?tail=', async () => {
      const result = await logs(quiet, { tail: 1 });
      expect(result.body.data).toEqual([{ stream: 'stdout', timestamp: expect.any(String), line: 'begin' }]);
    });

    it('leaves the timestamps out with ?timestamps=false', async () => {
      const result = await logs(quiet, { timestamps: false });
      expect(result.body.data).toEqual([{ stream: 'stdout', timestamp: null, line: 'begin' }]);
    });

    it('answers one stream with ?stdout=false', async () => {
      const result = await logs(talker, { stdout: false, tail: 10_000 });
      expect(result.body.data.map((line: { line: string }) => line.line)).toEqual(['err-1']);
    });

    it('answers nothing before ?since= when since is in the future', async () => {
      const result = await logs(quiet, { since: String(Math.floor(Date.now() / 1000) + 3600) });
      expect(result.body.data).toEqual([]);
    });

    it('answers 404 for an unknown container', async () => {
      expectError(await logs(`ig-${run}-missing`), 404, 'NOT_FOUND');
    });

    it('follows new lines as Server-Sent Events with ?follow=true', async () => {
      const client = await stream(node.nodeId, `${talker}/logs?follow=true&tail=1`);
      expect(client.status).toBe(200);
      expect(client.contentType).toMatch(/^text\/event-stream/);
      const seen: string[] = [];
      for (let event = await client.next(); event && seen.length < 3; event = await client.next()) {
        expect(event.event).toBe('log');
        seen.push(event.data.line);
      }
      client.leave();
      expect(seen.filter((line) => /^tick-\d+$/.test(line)).length).toBeGreaterThanOrEqual(2);
    });

    it('ends the followed stream with an end event when the container stops', async () => {
      const client = await stream(node.nodeId, `${quiet}/logs?follow=true`);
      expect((await client.next())?.data.line).toBe('begin');
      await node.podman.docker.getContainer(quiet).stop({ t: 0 });
      expect(await client.rest()).toEqual([{ event: 'end', data: {} }]);
    });

    it('answers 404 as JSON before a followed stream opens', async () => {
      const client = await stream(node.nodeId, `ig-${run}-missing/logs?follow=true`);
      expect(client.status).toBe(404);
      expect(client.body).toMatchObject({ code: 'NOT_FOUND' });
    });

    it("closes the engine's stream when the client leaves", async () => {
      const client = await stream(relayed.nodeId, `${talker}/logs?follow=true&tail=1`);
      await client.next();
      expect(relayed.relay.openStreams()).toBe(1);
      client.leave();
      await eventually(() => relayed.relay.openStreams() === 0, 'the engine stream to close');
    });
  });

  describe('stats (GET …/containers/:containerId/stats)', () => {
    const stats = (container: string) =>
      node.gateway.call('GET', `${node.base()}/containers/${container}/stats`);

    it('answers one sample of a running container', async () => {
      const result = await stats(talker);
      expect(result.status).toBe(200);
      expect(result.body.data).toMatchObject({
        memoryBytes: expect.any(Number),
        networkRxBytes: expect.any(Number),
        networkTxBytes: expect.any(Number),
        blockReadBytes: expect.any(Number),
        blockWriteBytes: expect.any(Number),
      });
      expect(result.body.data.pids).toBeGreaterThanOrEqual(1);
      // A percentage of one CPU (test/containerhost/container-stats.unit.test.ts has the arithmetic):
      // the talker's shell loop runs one process at a time, so it uses at most all of one CPU.
      expect(result.body.data.cpuPercent).toBeGreaterThanOrEqual(0);
      expect(result.body.data.cpuPercent).toBeLessThanOrEqual(100);
    });

    it('streams samples as Server-Sent Events with ?stream=true', async () => {
      const client = await stream(node.nodeId, `${talker}/stats?stream=true`);
      const sample = await client.next();
      client.leave();
      expect(sample?.event).toBe('stats');
      expect(sample?.data.pids).toBeGreaterThanOrEqual(1);
    });

    it("closes the engine's stream when the client leaves", async () => {
      const client = await stream(relayed.nodeId, `${talker}/stats?stream=true`);
      await client.next();
      expect(relayed.relay.openStreams()).toBe(1);
      client.leave();
      await eventually(() => relayed.relay.openStreams() === 0, 'the engine stream to close');
    });

    it('answers 409 for a container that is not running', async () => {
      const result = await stats(names.idle);
      expectError(result, 409, 'CONFLICT');
      expect(result.body.details.reason).toBe('CONTAINER_NOT_RUNNING');
    });

    it('answers 404 for an unknown container', async () => {
      expectError(await stats(`ig-${run}-missing`), 404, 'NOT_FOUND');
    });
  });
});
