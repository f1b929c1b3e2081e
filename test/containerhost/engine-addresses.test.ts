import dns from 'node:dns';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeTestPki, openssl, type TestPki } from '../services/openssl-pki.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { type RawCapture, startRawCapture, startTlsEngine } from './engine-peers.js';

// A remote engine's host name is resolved once, by the egress guard, and the client connects to the
// address that was checked: a second lookup could answer another one (DNS rebinding). The names here
// resolve only through the guard's lookup, which answers loopback for them as a rebinding DNS server
// would the first time; a client that looked the name up again would find nothing.
const GUARDED_NAMES = new Set(['engine.rebind.test', 'rsa.example.test']);
const NODES = '/api/containerhost/nodes';

let gateway: TestGateway;
let capture: RawCapture;
let counter = 0;
let guardLookup: { mockRestore(): void };

beforeAll(async () => {
  const lookup = dns.promises.lookup;
  guardLookup = vi
    .spyOn(dns.promises, 'lookup')
    .mockImplementation(((hostname: string, options: dns.LookupAllOptions) =>
      GUARDED_NAMES.has(hostname)
        ? Promise.resolve([{ address: '127.0.0.1', family: 4 }])
        : lookup(hostname, options)) as typeof dns.promises.lookup);
  [gateway, capture] = await Promise.all([startTestGateway({ dockerTimeoutMs: 2000 }), startRawCapture()]);
});
afterAll(async () => {
  guardLookup.mockRestore();
  await Promise.all([gateway.close(), capture.close()]);
});

async function readNode(body: Record<string, unknown>) {
  const created = await gateway.call('POST', NODES, { body: { name: `pinned-${++counter}`, ...body } });
  expect(created.status, created.text).toBe(201);
  return gateway.call('GET', `${NODES}/${created.body.data.id}`);
}

describe('a remote engine client', () => {
  it('connects a tcp:// node to the checked address, not to the name again', async () => {
    const before = capture.connections().length;
    await readNode({ endpoint: `tcp://engine.rebind.test:${capture.port}` });
    const sent = capture.connections().slice(before);
    expect(sent.map((bytes) => bytes.toString('latin1').split('\r\n')[0])).toEqual([
      expect.stringMatching(/^GET \S*\/version HTTP\/1\.1$/),
    ]);
  });

  it('connects an ssh:// node to the checked address, not to the name again', async () => {
    const before = capture.connections().length;
    await readNode({ endpoint: `ssh://deploy@engine.rebind.test:${capture.port}` });
    const sent = capture.connections().slice(before);
    expect(sent.map((bytes) => bytes.toString('latin1').slice(0, 8))).toEqual(['SSH-2.0-']);
  });
});

describe.skipIf(!openssl.path)('a TLS engine reached at its checked address', () => {
  let pki: TestPki;
  let engine: Awaited<ReturnType<typeof startTlsEngine>>;
  beforeAll(async () => {
    pki = makeTestPki();
    engine = await startTlsEngine({
      key: pki.rsaLeaf.keyPem,
      cert: pki.rsaLeaf.certificatePem + pki.intermediate.certificatePem,
    });
  });
  afterAll(async () => {
    await engine.close();
    pki.cleanup();
  });

  it('still verifies the certificate against the host name', async () => {
    const result = await readNode({
      endpoint: `tcp://rsa.example.test:${engine.port}`,
      tlsCa: pki.root.certificatePem,
    });
    expect(result.status, result.text).toBe(200);
    expect(result.body.data.engine).toMatchObject({ reachable: true, version: '27.0.0-tls-test' });
  });

  it('refuses an engine whose certificate does not name the host', async () => {
    const result = await readNode({
      endpoint: `tcp://engine.rebind.test:${engine.port}`,
      tlsCa: pki.root.certificatePem,
    });
    expect(result.status).toBe(422);
    expect(result.body.details.reason).toBe('ENGINE_UNREACHABLE');
  });
});
