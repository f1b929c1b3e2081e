import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CatalogEntry } from '../../src/modules/inference/catalog.js';
import type { OidcPeer } from '../services/oidc-provider.js';

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
      {
        id: 'test-device',
        label: 'Test device sign-in',
        family: 'vendor3',
        wireProtocol: 'vendor1-chat',
        baseUrl: `${modelsUrl}/v1`,
        authTypes: ['oauth'],
        subscription: true,
        featured: false,
        modelsPath: '/models',
        oauthFlow: 'device',
        completionMode: 'device_poll',
        oauth: {
          issuer: oidc.issuer,
          tokenEndpoint: oidc.endpoints.token,
          deviceAuthorizationEndpoint: oidc.endpoints.deviceAuthorization,
          clientId: oidc.deviceClientId,
          scopes: ['openid'],
        },
      },
      {
        id: 'test-device-short',
        label: 'Test device sign-in with 2-second codes',
        family: 'vendor3',
        wireProtocol: 'vendor1-chat',
        baseUrl: `${modelsUrl}/v1`,
        authTypes: ['oauth'],
        subscription: true,
        featured: false,
        oauthFlow: 'device',
        completionMode: 'device_poll',
        oauth: {
          issuer: oidc.issuer,
          tokenEndpoint: oidc.endpoints.token,
          deviceAuthorizationEndpoint: oidc.endpoints.deviceAuthorization,
          clientId: oidc.shortDeviceClientId,
          scopes: ['openid'],
        },
      },
    );
  }
  if (options.unreachable) {
    providers.push({
      id: 'test-unreachable',
      label: 'Test device sign-in whose server is down',
      family: 'vendor3',
      wireProtocol: 'vendor1-chat',
      baseUrl: options.unreachable,
      authTypes: ['oauth'],
      subscription: true,
      featured: false,
      oauthFlow: 'device',
      completionMode: 'device_poll',
      oauth: {
        tokenEndpoint: `${options.unreachable}/token`,
        deviceAuthorizationEndpoint: `${options.unreachable}/device/auth`,
        clientId: 'nobody',
        scopes: [],
      },
    });
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-catalog-'));
  const file = path.join(dir, 'catalog.json');
  fs.writeFileSync(file, JSON.stringify({ version: 1, providers }, null, 2));
  return file;
}
