import { describe, expect, it } from 'vitest';
import { KeyedRateLimiter, type Rate } from '../../src/core/token-bucket.js';

const TEN_A_SECOND: Rate = { perSecond: 10, burst: 20 };

describe('a token bucket', () => {
  it('admits its whole burst at once, then answers the seconds until the next token', () => {
    const limiter = new KeyedRateLimiter();
    expect(limiter.admit('token', [TEN_A_SECOND], [20], 0)).toBe(0);
    expect(limiter.admit('token', [TEN_A_SECOND], [1], 0)).toBe(0.1);
  });

  it('refuses one more than its burst, taking nothing', () => {
    const limiter = new KeyedRateLimiter();
    expect(limiter.admit('token', [TEN_A_SECOND], [21], 0)).toBe(0.1);
    expect(limiter.admit('token', [TEN_A_SECOND], [20], 0)).toBe(0);
  });

  it('refills at its rate', () => {
    const limiter = new KeyedRateLimiter();
    limiter.admit('token', [TEN_A_SECOND], [20], 0);
    expect(limiter.admit('token', [TEN_A_SECOND], [5], 500)).toBe(0);
    expect(limiter.admit('token', [TEN_A_SECOND], [1], 500)).toBe(0.1);
    expect(limiter.admit('token', [TEN_A_SECOND], [1], 600)).toBe(0);
  });

  it('never holds more than its burst, however long it was idle', () => {
    const limiter = new KeyedRateLimiter();
    limiter.admit('token', [TEN_A_SECOND], [20], 0);
    expect(limiter.admit('token', [TEN_A_SECOND], [21], 3_600_000)).toBe(0.1);
  });

  it('keeps a bucket per key', () => {
    const limiter = new KeyedRateLimiter();
    limiter.admit('one', [TEN_A_SECOND], [20], 0);
    expect(limiter.admit('other', [TEN_A_SECOND], [20], 0)).toBe(0);
  });
});

describe('several buckets of one key (records/s and bytes/s)', () => {
  const RECORDS: Rate = { perSecond: 10, burst: 10 };
  const BYTES: Rate = { perSecond: 100, burst: 100 };

  it('takes from all of them or from none', () => {
    const limiter = new KeyedRateLimiter();
    expect(limiter.admit('token', [RECORDS, BYTES], [1, 101], 0)).toBe(0.01);
    expect(limiter.admit('token', [RECORDS, BYTES], [10, 100], 0)).toBe(0);
  });

  it('answers the longest wait among the buckets that are short', () => {
    const limiter = new KeyedRateLimiter();
    limiter.admit('token', [RECORDS, BYTES], [10, 100], 0);
    expect(limiter.admit('token', [RECORDS, BYTES], [5, 10], 0)).toBe(0.5);
  });
});

describe('a changed rate', () => {
  // The bucket holds 5 of its 20 tokens when the rate changes.
  it.each([
    ['a smaller burst cuts what the bucket holds down to it', 3, 3],
    ['a larger burst does not fill the bucket up', 100, 5],
  ])('applies at once: %s', (_, burst, held) => {
    const limiter = new KeyedRateLimiter();
    limiter.admit('token', [TEN_A_SECOND], [15], 0);
    const changed: Rate = { perSecond: 10, burst };
    expect(limiter.admit('token', [changed], [held + 1], 0)).toBe(0.1);
    expect(limiter.admit('token', [changed], [held], 0)).toBe(0);
  });
});

describe('the number of keys kept', () => {
  it('forgets the key used least recently first', () => {
    const limiter = new KeyedRateLimiter(2);
    for (const key of ['a', 'b', 'c']) limiter.admit(key, [TEN_A_SECOND], [20], 0);
    expect(limiter.admit('b', [TEN_A_SECOND], [1], 0)).toBe(0.1);
    expect(limiter.admit('a', [TEN_A_SECOND], [20], 0)).toBe(0);
  });
});
