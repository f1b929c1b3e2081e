import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway, testDbKind } from '../support/gateway.js';

// On PostgreSQL these requests really run at the same time on different pooled connections; the
// tree's advisory lock must make the second move of each crossing pair see the first one's result.
let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.close());

const PAIRS = 6;

describe.each([{ base: '/api/logging/schema-folders' }, { base: '/api/logging/environment-folders' }])(
  `simultaneous crossing moves of $base (${testDbKind})`,
  ({ base }) => {
    it('never both succeed: of A→under B and B→under A, exactly one is refused with 422', async () => {
      const pairs = [];
      for (let index = 0; index < PAIRS; index += 1) {
        const [a, b] = await Promise.all(
          ['a', 'b'].map(async (side) => {
            const result = await gateway.call('POST', base, { body: { name: `cross-${index}-${side}` } });
            return result.body.data.id as string;
          }),
        );
        pairs.push({ a: a!, b: b! });
      }
      const results = await Promise.all(
        pairs.flatMap(({ a, b }) => [
          gateway.call('PUT', `${base}/${a}/move`, { body: { parentId: b } }),
          gateway.call('PUT', `${base}/${b}/move`, { body: { parentId: a } }),
        ]),
      );
      for (let index = 0; index < PAIRS; index += 1) {
        const statuses = [results[2 * index]!.status, results[2 * index + 1]!.status].sort();
        expect(statuses).toEqual([200, 422]);
      }
      const { body } = await gateway.call('GET', base, { query: { limit: 100 } });
      const parentOf = new Map<string, string | null>(
        body.data.map((folder: { id: string; parentId: string | null }) => [folder.id, folder.parentId]),
      );
      for (const { a, b } of pairs) {
        expect(parentOf.get(a) === b && parentOf.get(b) === a).toBe(false);
        expect([parentOf.get(a), parentOf.get(b)]).toContain(null);
      }
    });

    it('never closes a longer cycle either: A→under C and C→under B where B is inside A', async () => {
      const post = async (name: string, parentId?: string) =>
        (await gateway.call('POST', base, { body: { name, ...(parentId ? { parentId } : {}) } })).body.data
          .id as string;
      const a = await post(`ring-a-${Date.now()}`);
      const b = await post('ring-b', a);
      const c = await post(`ring-c-${Date.now()}`);
      const [first, second] = await Promise.all([
        gateway.call('PUT', `${base}/${a}/move`, { body: { parentId: c } }),
        gateway.call('PUT', `${base}/${c}/move`, { body: { parentId: b } }),
      ]);
      expect([first.status, second.status].sort()).toEqual([200, 422]);
    });
  },
);
