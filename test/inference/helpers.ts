import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CatalogEntry } from '../../src/inference-catalog.js';
import { type ModelListServer, startModelListServer } from '../services/model-list-server.js';
import { type OidcPeer, startOidcProvider } from '../services/oidc-provider.js';
import { freePort } from '../services/peers.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

export const API_KEY = 'sk-test-0123456789abcdef';

/** Writes a catalog file for tests: OAuth entries pointing at the oidc-provider peer, models at the model-list server. */
export function writeTestCatalog(options: {
  oidc?: OidcPeer;
  modelsUrl: string;
  unreachable?: string;
}): string {
  const { oidc, modelsUrl } = options;
  const providers: CatalogEntry[] = [
    {
      id: 'test-api',
      label: 'Test API',
      family: 'vendor2',
      wireProtocol: 'vendor2-messages',
      baseUrl: modelsUrl,
      authTypes: ['api_key'],
      subscription: false,
      featured: true,
      supportedOperations: ['inference'],
      modelsPath: '/v1/models',
      apiKeyHeader: { name: 'x-api-key' },
      extraHeaders: { 'vendor2-version': '2023-06-01' },
      oauthFlow: null,
      completionMode: null,
    },
    {
      id: 'test-local',
      label: 'Test local server',
      family: 'custom',
      wireProtocol: 'vendor1-chat',
      baseUrl: `${modelsUrl}/v1`,
      authTypes: ['local', 'api_key'],
      subscription: false,
      featured: false,
      allowBaseUrlOverride: true,
      privateNetworkByDefault: true,
      modelsPath: '/models',
      oauthFlow: null,
      completionMode: null,
    },
    {
      id: 'test-no-models',
      label: 'Test without a model list',
      family: 'vendor4',
      wireProtocol: 'vendor4-content',
      baseUrl: modelsUrl,
      authTypes: ['api_key'],
      subscription: false,
      featured: false,
      oauthFlow: null,
      completionMode: null,
    },
  ];
  if (oidc) {
    providers.push(
      {
        id: 'test-redirect',
        label: 'Test sign-in',
        family: 'vendor1',
        wireProtocol: 'vendor1-responses',
        baseUrl: `${modelsUrl}/v1`,
        authTypes: ['oauth'],
        subscription: true,
        featured: true,
        allowBaseUrlOverride: true,
        modelsPath: '/models',
        quotaKind: 'vendor1-quota',
        termsVersion: '2025-01',
        oauthFlow: 'redirect',
        completionMode: 'paste_callback',
        oauth: {
          issuer: oidc.issuer,
          authorizationEndpoint: oidc.endpoints.authorization,
          tokenEndpoint: oidc.endpoints.token,
          clientId: oidc.redirectClientId,
          scopes: ['openid'],
          redirectUri: oidc.redirectUri,
        },
      },
      deviceEntry('test-device', 'Test device sign-in', {
        baseUrl: `${modelsUrl}/v1`,
        tokenEndpoint: oidc.endpoints.token,
        deviceAuthorizationEndpoint: oidc.endpoints.deviceAuthorization,
        clientId: oidc.deviceClientId,
        issuer: oidc.issuer,
      }),
      deviceEntry('test-device-short', 'Test device sign-in with 2-second codes', {
        baseUrl: `${modelsUrl}/v1`,
        tokenEndpoint: oidc.endpoints.token,
        deviceAuthorizationEndpoint: oidc.endpoints.deviceAuthorization,
        clientId: oidc.shortDeviceClientId,
        issuer: oidc.issuer,
      }),
    );
  }
  if (options.unreachable) {
    providers.push(
      deviceEntry('test-unreachable', 'Test device sign-in whose server is down', {
        baseUrl: options.unreachable,
        tokenEndpoint: `${options.unreachable}/token`,
        deviceAuthorizationEndpoint: `${options.unreachable}/device/auth`,
        clientId: 'nobody',
      }),
    );
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-catalog-'));
  const file = path.join(dir, 'catalog.json');
  fs.writeFileSync(file, JSON.stringify({ version: 1, providers }, null, 2));
  return file;
}

function deviceEntry(
  id: string,
  label: string,
  where: {
    baseUrl: string;
    tokenEndpoint: string;
    deviceAuthorizationEndpoint: string;
    clientId: string;
    issuer?: string;
  },
): CatalogEntry {
  const { baseUrl, ...oauth } = where;
  return {
    id,
    label,
    family: 'vendor3',
    wireProtocol: 'vendor1-chat',
    baseUrl,
    authTypes: ['oauth'],
    subscription: true,
    featured: false,
    modelsPath: '/models',
    oauthFlow: 'device',
    completionMode: 'device_poll',
    oauth: { ...oauth, scopes: ['openid'] },
  };
}

export interface OAuthTestBed {
  gateway: TestGateway;
  oidc: OidcPeer;
  models: ModelListServer;
  close(): Promise<void>;
}

/**
 * The real authorization server, the model-list server that accepts its access tokens, and a
 * gateway whose catalog points at both (plus a device entry whose server is down).
 */
export async function startOAuthTestBed(): Promise<OAuthTestBed> {
  const oidc = await startOidcProvider();
  const models = await startModelListServer({ apiKeys: [], isActiveToken: (token) => oidc.isActive(token) });
  const gateway = await startTestGateway({
    inferenceCatalogPath: writeTestCatalog({
      oidc,
      modelsUrl: models.url,
      unreachable: `http://127.0.0.1:${await freePort()}`,
    }),
  });
  return {
    gateway,
    oidc,
    models,
    async close() {
      await gateway.close();
      await models.close();
      await oidc.close();
    },
  };
}
