import { LRUCache } from 'lru-cache';

/** A rate with a burst: `perSecond` refills a bucket that holds at most `burst`. */
export interface Rate {
  perSecond: number;
  burst: number;
}

interface Bucket {
  rate: Rate;
  tokens: number;
  at: number;
}

const refilled = (bucket: Bucket, now: number): number =>
  Math.min(bucket.rate.burst, bucket.tokens + ((now - bucket.at) / 1000) * bucket.rate.perSecond);

/**
 * Token buckets per key (e.g. records/s and bytes/s of one ingest token), kept in this process: a
 * request takes from every bucket of its key or from none. Buckets idle long enough to be full are
 * the ones evicted first, so eviction never lets a caller past its limit for long.
 */
export class KeyedRateLimiter {
  private readonly buckets: LRUCache<string, Bucket[]>;

  constructor(maxKeys = 10_000) {
    this.buckets = new LRUCache({ max: maxKeys });
  }

  /**
   * Takes `amounts[i]` from the bucket of `rates[i]`, all or nothing. Answers 0 when admitted, else
   * the seconds until all of them would be available (nothing taken). A changed rate applies at
   * once, keeping what the bucket held up to its new burst.
   */
  admit(key: string, rates: Rate[], amounts: number[], now = Date.now()): number {
    const buckets = this.bucketsOf(key, rates, now);
    let waitSeconds = 0;
    const levels = buckets.map((bucket, index) => {
      const level = refilled(bucket, now);
      const missing = amounts[index]! - level;
      if (missing > 0) waitSeconds = Math.max(waitSeconds, missing / bucket.rate.perSecond);
      return level;
    });
    if (waitSeconds > 0) return waitSeconds;
    buckets.forEach((bucket, index) => {
      bucket.tokens = levels[index]! - amounts[index]!;
      bucket.at = now;
    });
    return 0;
  }

  private bucketsOf(key: string, rates: Rate[], now: number): Bucket[] {
    const existing = this.buckets.get(key);
    const buckets = rates.map((rate, index) => {
      const old = existing?.[index];
      if (!old) return { rate, tokens: rate.burst, at: now };
      const tokens = Math.min(rate.burst, refilled(old, now));
      return { rate, tokens, at: now };
    });
    this.buckets.set(key, buckets);
    return buckets;
  }
}
