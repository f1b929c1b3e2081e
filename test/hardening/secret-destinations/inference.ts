import crypto from 'node:crypto';
import type { SecretDestinationCase } from './case.js';

const secret = `sk-walk-${crypto.randomUUID()}`;

/**
 * An inference connection with an API key: the key goes to `<baseUrl><modelsPath>` in its test (and
 * to the same base URL for every call through it). The shipped catalog's self-hosted entry lets the
 * operator choose the base URL. (A sign-in's access and refresh tokens have no request field: their
 * drop is proven in test/inference/oauth-redirect.test.ts.)
 */
export const inferenceConnection: SecretDestinationCase = {
  operation: 'PATCH /api/inference/connections/{id}',
  secret,
  secretField: 'apiKey',
  async create(gateway, firstDestination) {
    const result = await gateway.call('POST', '/api/inference/connections', {
      body: {
        providerId: 'custom-openai-compatible',
        name: `walk-${crypto.randomUUID()}`,
        authType: 'api_key',
        apiKey: secret,
        baseUrl: `${firstDestination}/v1`,
      },
    });
    return `/api/inference/connections/${result.body.data.id}`;
  },
  retarget: (gateway, recordPath, capture) =>
    gateway.call('PATCH', recordPath, { body: { baseUrl: `${capture.httpUrl}/v1` } }),
  use: (gateway, recordPath) => gateway.call('POST', `${recordPath}/test`),
};
