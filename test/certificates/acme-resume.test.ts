import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapFirstAdmin } from '../../src/bootstrap.js';
import { loadConfig } from '../../src/config.js';
import type { App } from '../../src/core/app.js';
import type { Database } from '../../src/db/client.js';
import { buildServer } from '../../src/server.js';
import { type Pebble, startPebble } from '../services/pebble.js';
import { freePort } from '../services/peers.js';
import { eventually } from '../support/eventually.js';
import { openTestDatabase, testConfig } from '../support/gateway.js';
import { pebble } from './acme-harness.js';

describe.skipIf(!pebble.ok)('an ACME order outlives the gateway process that started it', () => {
  let ca: Pebble;
  let database: Database;
  const masterKey = crypto.randomBytes(32);
  beforeAll(async () => {
    ca = await startPebble({ httpPort: await freePort() });
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
    await ca?.stop();
  });

  const start = async () => {
    const config = testConfig({
      acme: { ...loadConfig({}).acme, trustedCaFile: ca.tlsCaFile, intervalMs: 100, retryBaseSeconds: 1 },
    });
    const app = await buildServer({ config, database, masterKey, logger: false });
    await app.ready();
    return app;
  };
  const call = async (app: App, token: string, method: 'GET' | 'POST', url: string, body?: unknown) => {
    const response = await app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(body ? { payload: body as object } : {}),
    });
    return { status: response.statusCode, body: response.json() };
  };

  it('is carried on by the next process from the order it stored', async () => {
    const first = await start();
    const { token } = (await bootstrapFirstAdmin(first.deps.db, first.deps.audit, 3600))!;
    const ordered = await call(first, token, 'POST', '/api/ssl-certificates/acme', {
      name: 'outlives',
      domains: ['outlives.example.test'],
      challenge: 'dns-01',
      accountEmail: 'ops@example.test',
      directoryUrl: ca.directoryUrl,
    });
    expect(ordered.status).toBe(202);
    const url = `/api/ssl-certificates/${ordered.body.data.id}`;
    const waiting = await eventually(async () => {
      const record = (await call(first, token, 'GET', url)).body.data;
      return record.acme.awaitingConfirmation ? record : undefined;
    }, 'the TXT records');
    await first.close();

    // The record the first process's order asked for: a new order would ask for another value.
    const [txt] = waiting.acme.dnsRecords;
    await ca.challtestsrv.setTxt(txt.name, txt.value);
    const second = await start();
    try {
      expect((await call(second, token, 'POST', `${url}/acme/confirm`)).status).toBe(200);
      const issued = await eventually(async () => {
        const record = (await call(second, token, 'GET', url)).body.data;
        return record.status !== 'pending' ? record : undefined;
      }, 'the issue');
      expect(issued).toMatchObject({ status: 'valid', sans: ['outlives.example.test'], lastError: null });
    } finally {
      await second.close();
    }
  });
});
