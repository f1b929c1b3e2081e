import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CatalogEntry } from '../../src/inference-catalog.js';
import type { FakeVendor } from '../services/fake-vendor-server.js';
import { startFakeVendor1 } from '../services/fake-vendor1.js';
import { startFakeVendor2 } from '../services/fake-vendor2.js';
import { startFakeVendor4 } from '../services/fake-vendor4.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

export const VENDOR_KEY = 'sk-vendor-0123456789';

const entry = (
  id: string,
  wireProtocol: CatalogEntry['wireProtocol'],
  baseUrl: string,
  extra: Partial<CatalogEntry> = {},
): CatalogEntry => ({
  id,
  label: id,
  family: 'custom',
  wireProtocol,
  baseUrl,
  authTypes: ['api_key'],
  subscription: false,
  featured: false,
  oauthFlow: null,
  completionMode: null,
  ...extra,
});

export interface PlaneTestBed {
  gateway: TestGateway;
  /** The gateway's base URL (…/inference is the data plane). */
  url: string;
  vendor1: FakeVendor;
  vendor2: FakeVendor;
  vendor4: FakeVendor;
  /** The connection ids, named v1, v2 and v4. */
  connections: { v1: string; v2: string; v4: string };
  /** A consumer key for every model. */
  key: string;
  route(model: string, targets: { connection: 'v1' | 'v2' | 'v4'; upstreamModel: string }[]): Promise<void>;
  close(): Promise<void>;
}

/** Three vendor fakes, a listening gateway whose catalog points at them, a connection to each and a key. */
export async function startPlaneTestBed(
  overrides: Parameters<typeof startTestGateway>[0] = {},
): Promise<PlaneTestBed> {
  const [vendor1, vendor2, vendor4] = await Promise.all([
    startFakeVendor1({ apiKey: VENDOR_KEY }),
    startFakeVendor2({ apiKey: VENDOR_KEY }),
    startFakeVendor4({ apiKey: VENDOR_KEY }),
  ]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-plane-'));
  const catalogPath = path.join(dir, 'catalog.json');
  const providers = [
    entry('fake-vendor1', 'vendor1-chat', `${vendor1.url}/v1`),
    entry('fake-vendor2', 'vendor2-messages', vendor2.url, { apiKeyHeader: { name: 'x-api-key' } }),
    entry('fake-vendor4', 'vendor4-content', `${vendor4.url}/v1beta`, {
      apiKeyHeader: { name: 'x-goog-api-key' },
    }),
  ];
  fs.writeFileSync(catalogPath, JSON.stringify({ version: 1, providers }));
  const gateway = await startTestGateway({ inferenceCatalogPath: catalogPath, ...overrides });
  const url = await gateway.listen();
  const connect = async (name: string, providerId: string) =>
    (
      await gateway.call('POST', '/api/inference/connections', {
        body: { providerId, name, authType: 'api_key', apiKey: VENDOR_KEY },
      })
    ).body.data.id as string;
  const connections = {
    v1: await connect('v1', 'fake-vendor1'),
    v2: await connect('v2', 'fake-vendor2'),
    v4: await connect('v4', 'fake-vendor4'),
  };
  const key = (await gateway.call('POST', '/api/inference/keys', { body: { name: 'everything' } })).body.data
    .key;
  return {
    gateway,
    url,
    vendor1,
    vendor2,
    vendor4,
    connections,
    key,
    async route(model, targets) {
      const result = await gateway.call('POST', '/api/inference/routes', {
        body: {
          model,
          targets: targets.map((target) => ({
            connectionId: connections[target.connection],
            upstreamModel: target.upstreamModel,
          })),
        },
      });
      if (result.status !== 201) throw new Error(`route ${model}: ${result.text}`);
    },
    async close() {
      // The fakes first: their dropped connections end any provider call still open.
      await Promise.all([vendor1.close(), vendor2.close(), vendor4.close()]);
      await gateway.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
