import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestGateway, type TestGateway, testDbKind } from '../support/gateway.js';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway?.close());

const scrape = async () => (await gateway.call('GET', '/metrics')).text;

it.runIf(testDbKind === 'postgres')(
  'reports the PostgreSQL pool: its size, connections by state, waiting queries',
  async () => {
    const text = await scrape();
    expect(text).toContain('infragate_db_pool_max_connections 20\n');
    expect(text).toMatch(/infragate_db_pool_connections\{state="in_use"\} \d+\n/);
    expect(text).toMatch(/infragate_db_pool_connections\{state="idle"\} \d+\n/);
    expect(text).toMatch(/infragate_db_pool_waiting_queries \d+\n/);
  },
);

it.runIf(testDbKind === 'pglite')('reports no pool for the embedded database, which has none', async () => {
  expect(await scrape()).not.toContain('infragate_db_pool');
});
