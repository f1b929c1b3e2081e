import { expect } from 'vitest';
import type { TestGateway } from '../support/gateway.js';

let counter = 0;

/** Registers a key-value database through the API and answers its id. */
export async function registerDatabase(
  gateway: TestGateway,
  fields: Record<string, unknown> & { url: string },
): Promise<string> {
  counter += 1;
  const result = await gateway.call('POST', '/api/databases', {
    body: { name: `kv-${counter}-${Date.now()}`, type: 'keyvalue', ...fields },
  });
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  return result.body.data.id as string;
}

/** Runs a console command as `token` (the admin by default). */
export function command(gateway: TestGateway, id: string, line: string, token?: string) {
  return gateway.call('POST', `/api/databases/${id}/keyvalue/command`, {
    body: { command: line },
    ...(token ? { token } : {}),
  });
}
