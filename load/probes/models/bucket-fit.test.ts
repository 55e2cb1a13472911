// bucket-fit.ts decides "no bucket of the plan's figure gives this", which minute.ts turns into an exact
// (fixed-window) verdict. A correct bucket must never be read so, whatever the latency and its asymmetry:
// continuous buckets (testkit/load/limiter-shapes.ts token bucket and GCRA) driven by random waves with
// random legs each way. A fixed window over-admitting is read so once the count outlasts a few tokens.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aligned, firstUse, gcra, tokenBucket, type Meter } from '../../../testkit/load/limiter-shapes.ts';
import { admittedTooSoon, refusedTooEarly, resetsNoFixedWindow, startedFull, type Timed } from './bucket-fit.ts';

interface Sent extends Timed {
  admitted: boolean;
  retryMs: number;
  atMs: number;
}

/**
 * Waves of `widths` requests against `meter` from local time `t0` (server = local): each request's legs drawn
 * from `legs` (there, back); a wave goes out when the last one came back. The meter sees arrivals in order.
 */
function drive(meter: Meter, t0: number, widths: readonly number[], legs: () => [number, number]): Sent[] {
  const out: Sent[] = [];
  let t = t0;
  for (const width of widths) {
    const wave = Array.from({ length: width }, () => {
      const [there, back] = legs();
      return { sentMs: t, atMs: t + there, back };
    }).sort((a, b) => a.atMs - b.atMs);
    for (const r of wave) {
      const take = meter.take(r.atMs);
      out.push({
        sentMs: r.sentMs,
        receivedMs: r.atMs + r.back,
        admitted: take.admitted,
        retryMs: take.retryMs,
        atMs: r.atMs,
      });
    }
    t = Math.max(...out.slice(-width).map((o) => o.receivedMs));
  }
  return out;
}

/** The count as minute.ts holds it: admitted up to the first refusal, the first sent first. */
function countOf(sent: readonly Sent[]): { admitted: Timed[]; refused: Sent } | undefined {
  const i = sent.findIndex((o) => !o.admitted);
  if (i < 0) return undefined;
  return {
    admitted: sent.filter((o, j) => o.admitted && (j < i || o.sentMs < sent[i]!.receivedMs)),
    refused: sent[i]!,
  };
}

const LIMIT = 20;
const WINDOW_MS = 2000;
const buckets = { 'token bucket': tokenBucket, GCRA: gcra } as const;
const arbitraryRun = fc.record({
  restMs: fc.integer({ min: 0, max: 5000 }),
  widths: fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 3, maxLength: 12 }),
  legs: fc.array(fc.tuple(fc.integer({ min: 0, max: 150 }), fc.integer({ min: 0, max: 150 })), {
    minLength: 1,
    maxLength: 50,
  }),
});

describe('a correct continuous bucket is never read as "no bucket"', () => {
  it.for(Object.entries(buckets))('%s: its first refusal, at any latency and rest', ([, make]) => {
    let refusals = 0;
    let after429 = 0;
    fc.assert(
      fc.property(arbitraryRun, ({ restMs, widths, legs }) => {
        const meter = make(LIMIT, WINDOW_MS);
        // Drained first (its state then unknown to the count), rested, then counted.
        const before = drive(meter, 0, [LIMIT + 5], () => [0, 0]);
        const quiet = Math.max(...before.map((o) => o.receivedMs));
        let n = 0;
        const sent = drive(meter, quiet + restMs, [1, ...widths], () => legs[n++ % legs.length]!);
        const count = countOf(sent);
        if (!count) return;
        refusals++;
        expect(
          refusedTooEarly({
            limit: LIMIT,
            windowMs: WINDOW_MS,
            restMs,
            admitted: count.admitted,
            refused: count.refused,
          }),
        ).toBe(false);
        // What it admitted after that refusal: never sooner than it refills.
        const after = sent.filter((o) => o.admitted && o.sentMs >= count.refused.receivedMs);
        const last = after[after.length - 1];
        if (last) after429++;
        if (last)
          expect(
            admittedTooSoon({
              limit: LIMIT,
              windowMs: WINDOW_MS,
              refused: count.refused,
              admitted: after.length,
              lastMs: last.receivedMs,
            }),
          ).toBe(false);
      }),
      { numRuns: 400, seed: 15 },
    );
    // The property was asked of refusals and of admissions after them, not vacuously.
    expect(refusals).toBeGreaterThan(200);
    expect(after429).toBeGreaterThan(100);
  });
});

describe('a fixed window admitting more than the figure', () => {
  it('is read as "no bucket" from a window at rest, one request at a time over 21 × 40 ms', () => {
    const sent = drive(
      aligned(LIMIT + 1, 60_000),
      10_000,
      Array.from({ length: 23 }, () => 1),
      () => [20, 20],
    );
    const count = countOf(sent)!;
    expect(count.admitted).toHaveLength(LIMIT + 1);
    expect(startedFull({ restMs: WINDOW_MS, windowMs: WINDOW_MS })).toBe(true);
    expect(
      refusedTooEarly({
        limit: LIMIT,
        windowMs: WINDOW_MS,
        restMs: WINDOW_MS,
        admitted: count.admitted,
        refused: count.refused,
      }),
    ).toBe(true);
    // Not without the rest: a bucket drained just before may hold anything down to none.
    expect(
      refusedTooEarly({
        limit: LIMIT,
        windowMs: WINDOW_MS,
        restMs: 0,
        admitted: count.admitted,
        refused: count.refused,
      }),
    ).toBe(false);
  });

  it('its whole allowance back sooner than a bucket refills: admittedTooSoon', () => {
    const refused = { sentMs: 0, receivedMs: 10 };
    // 20 per 2 s: 1 + 10 per s, and one more for fence posts.
    expect(admittedTooSoon({ limit: LIMIT, windowMs: WINDOW_MS, refused, admitted: 19, lastMs: 1700 })).toBe(true);
    expect(admittedTooSoon({ limit: LIMIT, windowMs: WINDOW_MS, refused, admitted: 18, lastMs: 1700 })).toBe(false);
  });
});

// Two limiters, the day's headers on a 200, so only the minute's 429s show its Reset. A bucket's
// refill and a fixed window charging its 429s to the next window looked alike; their 429s' Resets do not.
describe('resetsNoFixedWindow: the Resets of minute 429s', () => {
  /** The whole-second Resets (rounded up, as express-rate-limit) of the refusals among `arrivals` (server ms). */
  const refusedResets = (meter: Meter, arrivals: readonly number[], round: (s: number) => number): number[] =>
    arrivals
      .map((t) => meter.take(t))
      .filter((x) => !x.admitted)
      .map((x) => round(x.resetMs / 1000));

  it('never from a fixed window (aligned or first-request, charging its 429s to the next window or not), however rounded', () => {
    const rounding = fc.constantFrom(Math.ceil, Math.floor, Math.round, (s: number) => s);
    const arrivals = fc
      .array(fc.integer({ min: 0, max: 20_000 }), { minLength: 1, maxLength: 120 })
      .map((a) => a.sort((x, y) => x - y));
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 6 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 0, max: 2 }),
        arrivals,
        rounding,
        (seconds, limit, origin, kind, times, round) => {
          const windowMs = seconds * 1000;
          const meter = kind === 0 ? aligned(limit, windowMs, origin) : firstUse(limit, windowMs, kind === 2);
          expect(
            resetsNoFixedWindow(
              refusedResets(
                meter,
                times.map((t) => t + origin),
                round,
              ),
              seconds,
              1,
            ),
          ).toBeUndefined();
        },
      ),
    );
  });

  it('from a drained bucket asked every 250 ms over a second and a half: 429s a second apart in Reset', () => {
    const bucket = tokenBucket(LIMIT, WINDOW_MS);
    const arrivals = [
      ...Array.from({ length: LIMIT }, () => 10_000),
      ...Array.from({ length: 7 * 5 }, (_, i) => 10_000 + Math.floor(i / 5) * 250 + 7),
    ];
    const resets = refusedResets(bucket, arrivals, Math.ceil);
    expect(resetsNoFixedWindow(resets, WINDOW_MS / 1000, 1)).toEqual([expect.any(Number), expect.any(Number)]);
    // Not with windows as coarse as the headers: every whole second is then some window's end.
    expect(resetsNoFixedWindow(resets, 1, 1)).toBeUndefined();
  });

  it('two Resets one second apart tell on 2 s windows; two seconds apart, or equal, do not', () => {
    expect(resetsNoFixedWindow([105, 104, 104], 2, 1)).toEqual([104, 105]);
    expect(resetsNoFixedWindow([104, 106, 108], 2, 1)).toBeUndefined();
    expect(resetsNoFixedWindow([104.5, 106.5], 3, 1)).toEqual([104.5, 106.5]);
    expect(resetsNoFixedWindow([104.5, 106.75], 3, 1)).toBeUndefined();
  });
});
