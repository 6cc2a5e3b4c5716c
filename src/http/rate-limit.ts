/**
 * Token-bucket rate limiting, keyed by whatever the caller chooses (a user's `sub` on /mcp, a client
 * address on the REST routes). Each key's bucket holds up to `burst` units and refills at `perMinute`
 * units a minute; a request takes its cost (expensive operations cost more) or is refused with the
 * whole seconds until it would fit, for `Retry-After`. A refused request takes nothing, so retrying
 * early does not dig the hole deeper. Pure and clock-injected, so it is tested without waiting.
 */

export interface RateLimitOptions {
  /** Units added to each bucket per minute (the sustained rate). */
  perMinute: number;
  /** Bucket size: units that may be spent at once after a quiet spell. */
  burst: number;
  /** Buckets kept at most; beyond it, full buckets (equivalent to none) are dropped first. */
  maxKeys?: number;
  now?: () => number;
}

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface RateLimiter {
  readonly perMinute: number;
  readonly burst: number;
  /** Takes `cost` units (at most `burst`: an expensive call needs a full bucket, never more) from `key`'s bucket. */
  take(key: string, cost?: number): RateDecision;
  /**
   * Takes `cost` units after the fact (work already done, such as bytes written), even into debt of at
   * most one bucket, so the key's next requests wait until it has refilled.
   */
  charge(key: string, cost: number): void;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

const allowed: RateDecision = { ok: true };

export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  if (!(options.perMinute > 0) || !(options.burst >= 1)) throw new RangeError("a rate limiter needs perMinute > 0 and burst >= 1");
  const { perMinute, burst } = options;
  const perMs = perMinute / 60_000;
  const maxKeys = options.maxKeys ?? 100_000;
  const now = options.now ?? Date.now;
  const buckets = new Map<string, Bucket>();

  const refilled = (bucket: Bucket, at: number) => Math.min(burst, bucket.tokens + (at - bucket.updatedAt) * perMs);

  /** Keeps memory bounded when many keys appear (many addresses): full buckets go first, then the oldest. */
  function prune(at: number) {
    for (const [key, bucket] of buckets) if (refilled(bucket, at) >= burst) buckets.delete(key);
    const target = Math.floor(maxKeys * 0.9);
    for (const key of buckets.keys()) {
      if (buckets.size <= target) break;
      buckets.delete(key);
    }
  }

  function bucketOf(key: string, at: number): Bucket {
    let bucket = buckets.get(key);
    if (bucket === undefined) {
      if (buckets.size >= maxKeys) prune(at);
      bucket = { tokens: burst, updatedAt: at };
      buckets.set(key, bucket);
    } else {
      bucket.tokens = refilled(bucket, at);
      bucket.updatedAt = at;
    }
    return bucket;
  }

  return {
    perMinute,
    burst,
    charge(key, cost) {
      if (!(cost > 0)) return;
      const bucket = bucketOf(key, now());
      bucket.tokens = Math.max(-burst, bucket.tokens - cost);
    },
    take(key, cost = 1) {
      const at = now();
      const bucket = bucketOf(key, at);
      const needed = Math.min(Math.max(cost, 0), burst);
      if (bucket.tokens >= needed) {
        bucket.tokens -= needed;
        return allowed;
      }
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((needed - bucket.tokens) / perMs / 1000)) };
    },
  };
}
