import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressGuard, findEgressDenial } from '../../src/core/egress-guard.js';
import { egressFor } from '../../src/modules/containerhost/engine-port.js';
import { listenOnLoopback } from '../services/peers.js';

// The one-host rule: work on behalf of a node on a local unix socket (the gateway's own host) may reach
// loopback whatever INFRAGATE_EGRESS says; nothing else the policy refuses is let through.
describe('the one-host egress rule', () => {
  const guard = new EgressGuard('private');
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((_request, response) => response.end('own host'));
    port = await listenOnLoopback(server);
  });
  afterAll(async () => {
    await guard.close();
    server.close();
  });

  it('lets a node on a unix socket reach loopback under INFRAGATE_EGRESS=private', async () => {
    const response = await egressFor(guard, { ownHost: true }).fetch(`http://127.0.0.1:${port}/`);
    expect(await response.text()).toBe('own host');
    expect(await egressFor(guard, { ownHost: true }).resolve('localhost')).toMatch(/^(127\.|::1$)/);
  });

  it('keeps loopback refused for a remote node', async () => {
    const refused = await egressFor(guard, { ownHost: false })
      .fetch(`http://127.0.0.1:${port}/`)
      .catch((error: unknown) => error);
    expect(findEgressDenial(refused)?.rule).toBe(
      'loopback addresses are not allowed by INFRAGATE_EGRESS=private',
    );
  });

  it('still refuses link-local and metadata addresses on the own host', async () => {
    const own = egressFor(guard, { ownHost: true });
    for (const address of ['169.254.169.254', 'fd00:ec2::254', '100.100.100.200'])
      expect(own.refusal(address)).toMatch(/always refused/);
  });

  it('still refuses what the policy refuses besides loopback', () => {
    const own = egressFor(new EgressGuard('public'), { ownHost: true });
    expect(own.refusal('10.1.2.3')).toBe('private addresses are not allowed by INFRAGATE_EGRESS=public');
    expect(own.refusal('127.0.0.1')).toBeUndefined();
  });

  it('is one guard per gateway guard, closed with it', () => {
    expect(guard.forOwnHost()).toBe(guard.forOwnHost());
    expect(guard.forOwnHost().forOwnHost()).toBe(guard.forOwnHost());
  });
});
