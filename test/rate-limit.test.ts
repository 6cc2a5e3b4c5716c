/**
 * The token bucket of src/http/rate-limit.ts, on an injected clock: a key spends up to `burst` at
 * once, refills at `perMinute`, is refused with the whole seconds until its request would fit, loses
 * nothing when refused, and never affects another key. Expensive requests take their cost.
 */
import { describe, expect, test } from "bun:test";
import { createRateLimiter } from "../src/http/rate-limit.ts";

function clock() {
  let time = 1_000_000;
  return { now: () => time, advance: (ms: number) => void (time += ms) };
}

describe("token bucket", () => {
  test("a key may spend its burst at once, then is refused with the seconds until one unit refills", () => {
    const time = clock();
    const limiter = createRateLimiter({ perMinute: 60, burst: 5, now: time.now });
    for (let i = 0; i < 5; i++) expect(limiter.take("alice")).toEqual({ ok: true });
    expect(limiter.take("alice")).toEqual({ ok: false, retryAfterSeconds: 1 });
  });

  test("work charged after the fact (bytes written) goes into debt of at most one bucket, and the key waits it out", () => {
    const time = clock();
    const limiter = createRateLimiter({ perMinute: 60, burst: 5, now: time.now });
    limiter.charge("writer", 1_000);
    // Five units of debt: six seconds until one unit is back.
    expect(limiter.take("writer")).toEqual({ ok: false, retryAfterSeconds: 6 });
    expect(limiter.take("other")).toEqual({ ok: true });
    time.advance(6_000);
    expect(limiter.take("writer")).toEqual({ ok: true });
  });

  test("the bucket refills at perMinute and never beyond burst", () => {
    const time = clock();
    const limiter = createRateLimiter({ perMinute: 6, burst: 2, now: time.now });
    limiter.take("k");
    limiter.take("k");
    expect(limiter.take("k")).toEqual({ ok: false, retryAfterSeconds: 10 });
    time.advance(10_000);
    expect(limiter.take("k")).toEqual({ ok: true });
    time.advance(10 * 60_000);
    expect(limiter.take("k")).toEqual({ ok: true });
    expect(limiter.take("k")).toEqual({ ok: true });
    expect(limiter.take("k").ok).toBe(false);
  });

  test("a refused request takes nothing: waiting the advertised seconds is enough", () => {
    const time = clock();
    const limiter = createRateLimiter({ perMinute: 30, burst: 1, now: time.now });
    limiter.take("k");
    const refused = limiter.take("k");
    expect(refused).toEqual({ ok: false, retryAfterSeconds: 2 });
    for (let i = 0; i < 50; i++) expect(limiter.take("k").ok).toBe(false);
    time.advance(2_000);
    expect(limiter.take("k")).toEqual({ ok: true });
  });

  test("an expensive request takes its cost, and waits for that many units", () => {
    const time = clock();
    const limiter = createRateLimiter({ perMinute: 60, burst: 20, now: time.now });
    expect(limiter.take("k", 10)).toEqual({ ok: true });
    expect(limiter.take("k", 10)).toEqual({ ok: true });
    expect(limiter.take("k", 10)).toEqual({ ok: false, retryAfterSeconds: 10 });
    expect(limiter.take("k", 1)).toEqual({ ok: false, retryAfterSeconds: 1 });
  });

  test("a cost above burst needs a full bucket, so it is never refused forever", () => {
    const time = clock();
    const limiter = createRateLimiter({ perMinute: 60, burst: 3, now: time.now });
    expect(limiter.take("k", 10)).toEqual({ ok: true });
    expect(limiter.take("k", 10)).toEqual({ ok: false, retryAfterSeconds: 3 });
    time.advance(3_000);
    expect(limiter.take("k", 10)).toEqual({ ok: true });
  });

  test("one key's exhaustion does not affect another key", () => {
    const time = clock();
    const limiter = createRateLimiter({ perMinute: 60, burst: 2, now: time.now });
    limiter.take("alice");
    limiter.take("alice");
    expect(limiter.take("alice").ok).toBe(false);
    expect(limiter.take("bob")).toEqual({ ok: true });
    expect(limiter.take("bob")).toEqual({ ok: true });
  });

  test("with more keys than maxKeys, busy keys keep their state while full ones are dropped", () => {
    const time = clock();
    const limiter = createRateLimiter({ perMinute: 1, burst: 1, maxKeys: 10, now: time.now });
    expect(limiter.take("busy")).toEqual({ ok: true });
    time.advance(60_000); // every bucket created from here on is full until used
    limiter.take("busy");
    for (let i = 0; i < 9; i++) limiter.take(`quiet-${i}`, 0);
    limiter.take("newcomer"); // the map is full: the nine full quiet buckets go, "busy" (empty) stays
    expect(limiter.take("busy").ok).toBe(false);
  });

  test("perMinute must be positive and burst at least 1", () => {
    expect(() => createRateLimiter({ perMinute: 0, burst: 1 })).toThrow(RangeError);
    expect(() => createRateLimiter({ perMinute: 10, burst: 0 })).toThrow(RangeError);
  });
});
