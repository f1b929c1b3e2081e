import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressGuard } from '../../src/core/egress-guard.js';
import { Rfc2136Provider } from '../../src/modules/certificates/acme/rfc2136.js';
import { type KnotServer, knotBinary, startKnot } from '../services/knot.js';

const knot = knotBinary();
if (knot.skipReason) console.warn(`skipping the RFC 2136 tests: ${knot.skipReason}`);

describe.skipIf(!knot.path)('RFC 2136 DNS updates signed with TSIG (against Knot DNS)', () => {
  let server: KnotServer;
  const egress = new EgressGuard('any');
  beforeAll(async () => {
    server = await startKnot();
  });
  afterAll(async () => {
    await server?.stop();
    await egress.close();
  });

  const provider = (overrides: { tsigSecret?: string; zone?: string } = {}, guard = egress) =>
    new Rfc2136Provider({
      egress: guard,
      settings: {
        server: '127.0.0.1',
        port: server.port,
        zone: server.zone,
        tsigKeyName: server.tsigKeyName,
        tsigAlgorithm: server.tsigAlgorithm,
        tsigSecret: server.tsigSecret,
        ttl: 60,
        ...overrides,
      },
    });

  it('adds a TXT record the server then answers', async () => {
    await provider().addTxt('_acme-challenge.add.example.test', 'first-value');
    expect(await server.txt('_acme-challenge.add.example.test')).toEqual(['first-value']);
  });

  it('adds a second value beside the first at the same name', async () => {
    await provider().addTxt('_acme-challenge.two.example.test', 'one');
    await provider().addTxt('_acme-challenge.two.example.test', 'two');
    expect((await server.txt('_acme-challenge.two.example.test')).sort()).toEqual(['one', 'two']);
  });

  it('removes exactly the value it is given', async () => {
    await provider().addTxt('_acme-challenge.remove.example.test', 'keep');
    await provider().addTxt('_acme-challenge.remove.example.test', 'drop');
    await provider().removeTxt('_acme-challenge.remove.example.test', 'drop');
    expect(await server.txt('_acme-challenge.remove.example.test')).toEqual(['keep']);
  });

  it('reports the server refusing an update signed with the wrong key', async () => {
    const wrong = Buffer.alloc(32, 7).toString('base64');
    await expect(
      provider({ tsigSecret: wrong }).addTxt('_acme-challenge.bad.example.test', 'x'),
    ).rejects.toThrow(/NOTAUTH.*BADSIG|refused/);
    expect(await server.txt('_acme-challenge.bad.example.test')).toEqual([]);
  });

  it('reports an update for a zone the server does not serve', async () => {
    await expect(
      provider({ zone: 'other.test' }).addTxt('_acme-challenge.x.other.test', 'x'),
    ).rejects.toThrow(/refused by/);
  });

  it('refuses a server the egress policy does not allow, before connecting', async () => {
    const strict = new EgressGuard('public');
    const guarded = provider({}, strict);
    await expect(guarded.addTxt('_acme-challenge.egress.example.test', 'x')).rejects.toThrow(/egress/);
    await strict.close();
  });
});
