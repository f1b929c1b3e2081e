import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({ bodyLimitBytes: 1024 * 1024 });
});
afterAll(() => gateway.close());

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const post = (rawBody: string) =>
  gateway.call('POST', '/auth/tokens', { rawBody, headers: { 'content-type': 'application/json' } });

describe('JSON bodies', () => {
  it('nested deeper than 64 levels are refused with 400 naming the limit', async () => {
    const result = await post(`{"name": ${nested(65)}}`);
    expectValidationError(result, []);
    expect(JSON.stringify(result.body.details)).toMatch(/nested deeper than 64 levels/);
  });

  it('nested 100,000 levels deep (200 KB) are refused with 400, not a stack overflow', async () => {
    expectValidationError(await post(nested(100_000)), []);
  });

  it('nested exactly 64 levels deep reach validation', async () => {
    // The route's schema then refuses the shape, naming the field rather than the nesting.
    expectValidationError(await post(`{"name": ${nested(63)}}`), ['name']);
  });

  it('with a __proto__ key are refused with a reason, not called invalid JSON', async () => {
    const result = await post('{"name": "x", "__proto__": {"admin": true}}');
    expectValidationError(result, ['__proto__']);
    expect(JSON.stringify(result.body.details)).toMatch(/__proto__/);
    expect(JSON.stringify(result.body.details)).not.toMatch(/not valid JSON/);
  });

  it('with a constructor.prototype key are refused with a reason', async () => {
    const result = await post('{"name": "x", "constructor": {"prototype": {"admin": true}}}');
    expectValidationError(result, ['constructor']);
    expect(JSON.stringify(result.body.details)).toMatch(/constructor\.prototype/);
  });

  it('with a nested __proto__ key name its path', async () => {
    expectValidationError(await post('{"name": "x", "meta": [{"__proto__": {}}]}'), ['meta', 0, '__proto__']);
  });

  it('that are malformed still say the body is not valid JSON', async () => {
    const result = await post('{"name": ');
    expect(JSON.stringify(result.body.details)).toMatch(/not valid JSON/);
  });
});
