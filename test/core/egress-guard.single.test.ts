import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EgressPolicy } from '../../src/config.js';
import {
  type AddressClass,
  classifyAddress,
  type EgressDeniedError,
  EgressGuard,
  findEgressDenial,
} from '../../src/core/egress-guard.js';
import { listenOnLoopback } from '../services/peers.js';

describe('classifyAddress', () => {
  const table: [string, AddressClass][] = [
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['198.18.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fc00::1', 'private'],
    ['169.254.169.254', 'forbidden'],
    ['169.254.0.1', 'forbidden'],
    ['fd00:ec2::254', 'forbidden'],
    ['FD00:EC2:0:0:0:0:0:254', 'forbidden'],
    ['100.100.100.200', 'forbidden'],
    ['192.0.0.192', 'forbidden'],
    ['fe80::1', 'forbidden'],
    ['0.0.0.0', 'forbidden'],
    ['::', 'forbidden'],
    ['224.0.0.1', 'forbidden'],
    ['ff02::1', 'forbidden'],
    ['255.255.255.255', 'forbidden'],
    ['192.0.2.10', 'forbidden'],
    ['2001:db8::1', 'forbidden'],
    // IPv6 forms that carry an IPv4 address are classed by the IPv4 address.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'forbidden'],
    ['::ffff:a9fe:a9fe', 'forbidden'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:8.8.8.8', 'public'],
    ['::7f00:1', 'loopback'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'forbidden'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:a9fe:a9fe::1', 'forbidden'],
    ['2002:808:808::1', 'public'],
    ['[::1]', 'loopback'],
  ];
  it.each(table)('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it('treats something that is not an address as forbidden', () => {
    expect(classifyAddress('not-an-ip')).toBe('forbidden');
  });
});

describe('policy matrix', () => {
  const samples: Record<AddressClass, string> = {
    public: '93.184.216.34',
    private: '10.0.0.5',
    loopback: '127.0.0.1',
    forbidden: '169.254.169.254',
  };
  const allowed: Record<EgressPolicy, AddressClass[]> = {
    public: ['public'],
    private: ['public', 'private'],
    any: ['public', 'private', 'loopback'],
  };
  const cases = (Object.keys(allowed) as EgressPolicy[]).flatMap((policy) =>
    (Object.keys(samples) as AddressClass[]).map(
      (kind) => [policy, kind, allowed[policy].includes(kind)] as [EgressPolicy, AddressClass, boolean],
    ),
  );

  it.each(cases)('INFRAGATE_EGRESS=%s, %s address: allowed=%s', (policy, kind, expected) => {
    const guard = new EgressGuard(policy);
    const rule = guard.refusal(samples[kind]);
    expect(rule === undefined).toBe(expected);
    if (!expected) {
      expect(rule).toMatch(
        kind === 'forbidden' ? /always refused/ : new RegExp(`INFRAGATE_EGRESS=${policy}`),
      );
    }
    void guard.close();
  });
});

/** A loopback HTTP server whose handler a test sets. */
async function startServer(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  const port = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function denial(promise: Promise<unknown>): Promise<EgressDeniedError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  const found = findEgressDenial(error);
  if (!found) throw new Error(`expected an egress denial, got ${String(error)}`);
  return found;
}

describe('EgressGuard.resolve', () => {
  it('answers the address of an allowed IP literal', async () => {
    expect(await new EgressGuard('any').resolve('127.0.0.1')).toBe('127.0.0.1');
    expect(await new EgressGuard('any').resolve('[::1]')).toBe('::1');
  });

  it('refuses a name that resolves to loopback under private', async () => {
    const error = await denial(new EgressGuard('private').resolve('localhost'));
    expect(error.rule).toBe('loopback addresses are not allowed by INFRAGATE_EGRESS=private');
    expect(error.host).toBe('localhost');
  });

  it('refuses a metadata address even under any', async () => {
    const error = await denial(new EgressGuard('any').resolve('169.254.169.254'));
    expect(error.rule).toMatch(/always refused/);
  });
});

describe('EgressGuard.fetch', () => {
  let target: Awaited<ReturnType<typeof startServer>>;
  let other: Awaited<ReturnType<typeof startServer>>;
  let redirectTo = '';
  let redirectStatus = 302;
  let seen: { method?: string | undefined; headers: http.IncomingHttpHeaders }[] = [];

  beforeAll(async () => {
    target = await startServer((request, response) => {
      if (request.url === '/redirect') {
        response.writeHead(redirectStatus, { location: redirectTo }).end();
        return;
      }
      if (request.url === '/hang') return; // never answers
      seen.push({ method: request.method, headers: request.headers });
      response.writeHead(200, { 'content-type': 'text/plain' }).end('target');
    });
    other = await startServer((request, response) => {
      seen.push({ method: request.method, headers: request.headers });
      response.writeHead(200).end('other');
    });
  });
  afterAll(async () => {
    await target.close();
    await other.close();
  });

  it('reaches a loopback server under any', async () => {
    const guard = new EgressGuard('any');
    const response = await guard.fetch(`${target.url}/`);
    expect(await response.text()).toBe('target');
    await guard.close();
  });

  it('refuses a loopback IP literal under private, naming the rule', async () => {
    const error = await denial(new EgressGuard('private').fetch(`${target.url}/`));
    expect(error.address).toBe('127.0.0.1');
    expect(error.rule).toBe('loopback addresses are not allowed by INFRAGATE_EGRESS=private');
  });

  it('refuses a name that resolves to loopback under private at connect time', async () => {
    const port = new URL(target.url).port;
    const error = await denial(new EgressGuard('private').fetch(`http://localhost:${port}/`));
    expect(error.host).toBe('localhost');
    expect(classifyAddress(error.address)).toBe('loopback');
  });

  it('refuses IPv6 literals that carry a loopback address (URL-normalised to hex) under public', async () => {
    const error = await denial(new EgressGuard('public').fetch('http://[::ffff:127.0.0.1]:1/'));
    expect(error.rule).toMatch(/loopback/);
    await denial(new EgressGuard('public').fetch('http://[::127.0.0.1]:1/'));
  });

  it('refuses a metadata address written in decimal', async () => {
    const error = await denial(new EgressGuard('any').fetch('http://2852039166/latest/meta-data'));
    expect(error.address).toBe('169.254.169.254');
  });

  it('refuses schemes other than http and https', async () => {
    const error = await denial(new EgressGuard('any').fetch('file:///etc/passwd'));
    expect(error.rule).toMatch(/scheme file:/);
  });

  it('follows a redirect to an allowed address', async () => {
    const guard = new EgressGuard('any');
    redirectStatus = 302;
    redirectTo = `${other.url}/landing`;
    const response = await guard.fetch(`${target.url}/redirect`);
    expect(await response.text()).toBe('other');
    await guard.close();
  });

  it('re-checks a redirect and refuses one to a metadata address', async () => {
    redirectStatus = 302;
    redirectTo = 'http://169.254.169.254/latest/meta-data/iam/security-credentials/';
    const error = await denial(new EgressGuard('any').fetch(`${target.url}/redirect`));
    expect(error.address).toBe('169.254.169.254');
  });

  it('re-checks a redirect and refuses one to an IPv4-mapped metadata address', async () => {
    redirectStatus = 301;
    redirectTo = 'http://[::ffff:169.254.169.254]/';
    await denial(new EgressGuard('any').fetch(`${target.url}/redirect`));
  });

  it('refuses a redirect to another scheme', async () => {
    redirectStatus = 302;
    redirectTo = 'file:///etc/passwd';
    await denial(new EgressGuard('any').fetch(`${target.url}/redirect`));
  });

  it('drops credentials when a redirect leaves the origin', async () => {
    const guard = new EgressGuard('any');
    seen = [];
    redirectStatus = 302;
    redirectTo = `${other.url}/landing`;
    await guard.fetch(`${target.url}/redirect`, {
      headers: {
        authorization: 'Bearer secret',
        'private-token': 'glpat-secret',
        cookie: 'a=b',
        'x-kept': '1',
      },
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(seen[0]!.headers['private-token']).toBeUndefined();
    expect(seen[0]!.headers.cookie).toBeUndefined();
    expect(seen[0]!.headers['x-kept']).toBe('1');
    await guard.close();
  });

  it('keeps credentials on a redirect within the origin', async () => {
    const guard = new EgressGuard('any');
    seen = [];
    redirectStatus = 302;
    redirectTo = '/landing';
    await guard.fetch(`${target.url}/redirect`, { headers: { 'private-token': 'glpat-secret' } });
    expect(seen[0]!.headers['private-token']).toBe('glpat-secret');
    await guard.close();
  });

  it('turns a POST into a GET without body on a 303', async () => {
    const guard = new EgressGuard('any');
    seen = [];
    redirectStatus = 303;
    redirectTo = '/landing';
    await guard.fetch(`${target.url}/redirect`, {
      method: 'POST',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(seen[0]!.method).toBe('GET');
    expect(seen[0]!.headers['content-type']).toBeUndefined();
    await guard.close();
  });

  it('answers the redirect itself once maxRedirects is reached', async () => {
    const guard = new EgressGuard('any');
    redirectStatus = 302;
    redirectTo = `${target.url}/redirect`;
    const response = await guard.fetch(`${target.url}/redirect`, { maxRedirects: 2 });
    expect(response.status).toBe(302);
    await guard.close();
  });

  it('gives up on a host that does not answer within the timeout', async () => {
    const guard = new EgressGuard('any');
    const error = await guard
      .fetch(`${target.url}/hang`, { timeoutMs: 200 })
      .catch((caught: unknown) => caught);
    expect((error as Error).name).toBe('TimeoutError');
    await guard.close();
  });
});
