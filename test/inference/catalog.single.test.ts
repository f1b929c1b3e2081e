import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { BUILT_IN_CATALOG, catalogProblems, loadCatalog } from '../../src/inference-catalog.js';
import { expectError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { writeTestCatalog } from './helpers.js';

const REQUIRED = [
  'id',
  'label',
  'family',
  'wireProtocol',
  'baseUrl',
  'authTypes',
  'subscription',
  'featured',
];
const ALLOWED = [
  ...REQUIRED,
  'allowBaseUrlOverride',
  'privateNetworkByDefault',
  'supportedOperations',
  'modelsPath',
  'quotaKind',
  'termsVersion',
  'oauthFlow',
  'completionMode',
];

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway?.close());

// biome-ignore lint/suspicious/noExplicitAny: catalog entries read freely
type Entry = Record<string, any>;

async function builtIn(): Promise<Entry[]> {
  const result = await gateway.call('GET', '/api/inference/providers/catalog');
  expect(result.status).toBe(200);
  return result.body;
}

describe('GET /api/inference/providers/catalog (built-in catalog)', () => {
  it('answers a bare JSON array of entries with the required fields and oauthFlow/completionMode always present', async () => {
    const entries = await builtIn();
    expect(Array.isArray(entries)).toBe(true);
    for (const entry of entries) {
      for (const field of [...REQUIRED, 'oauthFlow', 'completionMode']) expect(entry).toHaveProperty(field);
      expect(Object.keys(entry).filter((key) => !ALLOWED.includes(key))).toEqual([]);
    }
  });

  it('covers every family and every wire protocol', async () => {
    const entries = await builtIn();
    expect(new Set(entries.map((e) => e.family))).toEqual(
      new Set(['vendor1', 'vendor2', 'vendor3', 'vendor4', 'custom']),
    );
    expect(new Set(entries.map((e) => e.wireProtocol))).toEqual(
      new Set(['vendor1-responses', 'vendor1-chat', 'vendor2-messages', 'vendor4-content']),
    );
  });

  it('has null oauthFlow and completionMode exactly on entries without oauth', async () => {
    for (const entry of await builtIn()) {
      const oauth = entry.authTypes.includes('oauth');
      expect(entry.oauthFlow === null).toBe(!oauth);
      expect(entry.completionMode === null).toBe(!oauth);
    }
  });

  it('has a redirect/paste_callback entry and a device/device_poll entry', async () => {
    const entries = await builtIn();
    expect(entries.some((e) => e.oauthFlow === 'redirect' && e.completionMode === 'paste_callback')).toBe(
      true,
    );
    expect(entries.some((e) => e.oauthFlow === 'device' && e.completionMode === 'device_poll')).toBe(true);
  });

  it('has a local custom entry that allows a base URL override and is private by default', async () => {
    const local = (await builtIn()).find((e) => e.family === 'custom' && e.authTypes.includes('local'));
    expect(local).toMatchObject({ allowBaseUrlOverride: true, privateNetworkByDefault: true });
  });

  it('never answers the OAuth settings kept in the data file', async () => {
    const result = await gateway.call('GET', '/api/inference/providers/catalog');
    expect(result.text).not.toContain('tokenEndpoint');
    expect(result.text).not.toContain('clientId');
  });

  it('needs a token (401) and inference:view (403)', async () => {
    expectError(
      await gateway.call('GET', '/api/inference/providers/catalog', { token: null }),
      401,
      'UNAUTHORIZED',
    );
    const none = await gateway.tokenWithScopes([]);
    expectError(
      await gateway.call('GET', '/api/inference/providers/catalog', { token: none }),
      403,
      'FORBIDDEN',
    );
    const viewer = await gateway.tokenWithScopes(['inference:view']);
    expect((await gateway.call('GET', '/api/inference/providers/catalog', { token: viewer })).status).toBe(
      200,
    );
  });
});

describe('OpenAPI', () => {
  it('documents every inference route with its required scope', async () => {
    const result = await gateway.call('GET', '/openapi.json');
    expect(result.status).toBe(200);
    const paths = Object.entries(result.body.paths as Record<string, Record<string, Entry>>).filter(([url]) =>
      url.startsWith('/api/inference/'),
    );
    expect(paths.map(([url]) => url)).toEqual(
      expect.arrayContaining([
        '/api/inference/providers/catalog',
        '/api/inference/providers/oauth/start',
        '/api/inference/providers/oauth/{id}/complete',
        '/api/inference/connections/{id}/test',
      ]),
    );
    for (const [, operations] of paths)
      for (const operation of Object.values(operations))
        expect(['inference:view', 'inference:manage']).toContain(operation['x-required-scope']);
  });
});

describe('operator catalog (INFRAGATE_INFERENCE_CATALOG)', () => {
  it("serves the operator's catalog instead of the built-in one", async () => {
    const custom = await startTestGateway({
      inferenceCatalogPath: writeTestCatalog({ modelsUrl: 'http://127.0.0.1:9' }),
    });
    try {
      const result = await custom.call('GET', '/api/inference/providers/catalog');
      expect(result.body.map((e: Entry) => e.id)).toEqual(['test-api', 'test-local', 'test-no-models']);
    } finally {
      await custom.close();
    }
  });

  function configWith(content: string | undefined): () => unknown {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-catalog-'));
    const file = path.join(dir, 'catalog.json');
    if (content !== undefined) fs.writeFileSync(file, content);
    return () => loadConfig({ INFRAGATE_DATA_DIR: dir, INFRAGATE_INFERENCE_CATALOG: file });
  }

  function problemsOf(load: () => unknown): string[] {
    try {
      load();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).problems;
    }
    throw new Error('expected a ConfigError');
  }

  it('accepts the built-in catalog as an operator file', () => {
    const config = loadConfig({ INFRAGATE_INFERENCE_CATALOG: BUILT_IN_CATALOG });
    expect(config.inferenceCatalogPath).toBe(BUILT_IN_CATALOG);
  });

  it('reports a missing file at start', () => {
    const [problem] = problemsOf(configWith(undefined));
    expect(problem).toMatch(/INFRAGATE_INFERENCE_CATALOG=.*cannot be read: ENOENT/);
  });

  it('reports a file that is not JSON', () => {
    const [problem] = problemsOf(configWith('{ nope'));
    expect(problem).toMatch(/is invalid: not valid JSON/);
  });

  it('reports every bad field with its place', () => {
    const builtInText = fs.readFileSync(BUILT_IN_CATALOG, 'utf8');
    const catalog = JSON.parse(builtInText);
    catalog.providers[0].family = 'vendor9';
    delete catalog.providers[1].label;
    const problems = problemsOf(configWith(JSON.stringify(catalog)));
    expect(problems.some((p) => p.includes('providers[0].family'))).toBe(true);
    expect(problems.some((p) => p.includes('providers[1]: label is required'))).toBe(true);
  });

  it('reports duplicate ids and OAuth fields that do not go together', () => {
    const catalog = JSON.parse(fs.readFileSync(BUILT_IN_CATALOG, 'utf8'));
    catalog.providers[2].id = catalog.providers[0].id;
    const device = catalog.providers.find((e: Entry) => e.oauthFlow === 'device');
    delete device.oauth.deviceAuthorizationEndpoint;
    const redirect = catalog.providers.find((e: Entry) => e.oauthFlow === 'redirect');
    redirect.completionMode = null;
    const { problems } = catalogProblems(JSON.stringify(catalog));
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('duplicate id'),
        expect.stringContaining('deviceAuthorizationEndpoint: is required for a device flow'),
        expect.stringContaining('completionMode: must be set exactly when authTypes includes oauth'),
      ]),
    );
  });

  it('refuses to build the gateway on an invalid catalog (loadCatalog throws a ConfigError)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-catalog-'));
    const file = path.join(dir, 'catalog.json');
    fs.writeFileSync(file, JSON.stringify({ version: 1, providers: [] }));
    expect(() => loadCatalog(file)).toThrow(ConfigError);
  });
});
