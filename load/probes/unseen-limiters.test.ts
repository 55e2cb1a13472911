// Limiters no earlier test met, as real libraries build them (virtual time): a sliding-window counter
// with windows aligned to its own start, refused requests not counted, and X-RateLimit-Reset rounded
// down; a fixed window opened by a key's first request behind two replicas whose proxy writes its own
// Date; Retry-After always the window's length; refused requests counted. Each correct one passes or
// is left unjudged with a reason on every seed, never failed; each twin fails on its own rule.
import { describe, expect, it } from 'vitest';
import type { ShapeFaults, ShapeOptions } from '../../testkit/load/limiter-shapes.ts';
import { FAKE_START_MS } from '../../testkit/load/in-process.ts';
import { runShape } from '../../testkit/load/shape-run.ts';

const WINDOWS = { minuteSeconds: 3, daySeconds: 45 };
const PLANS = { free: { perMinute: 10, perDay: 60 }, pro: { perMinute: 20, perDay: 150 } };
const SEEDS = Array.from({ length: 10 }, (_, i) => 1 + i);
/** The limiter started 1.3 s into an epoch-aligned window: its windows are its own. */
const OWN_START = FAKE_START_MS - 1_300;

const ROWS: Array<[string, Omit<ShapeOptions, 'windows'>]> = [
  [
    'sliding-window counter, own start, Reset rounded down',
    { meter: 'sliding-counter', headers: 'binding', originMs: OWN_START, resetRoundedDown: true },
  ],
  [
    'first-request window, Reset rounded down, two replicas behind a proxy writing its Date',
    {
      meter: 'first-use',
      headers: 'binding',
      resetRoundedDown: true,
      dateSkewMs: (n) => (n % 2 === 0 ? 0 : 350),
    },
  ],
  [
    'aligned windows, Retry-After always the window length',
    { meter: 'aligned', headers: 'binding', originMs: OWN_START, retryAfterWindow: true },
  ],
  [
    'sliding-window counter counting its refused requests',
    { meter: 'sliding-counter', headers: 'binding', originMs: OWN_START, countRefused: true },
  ],
  [
    // Waited out to the millisecond, the next request reports the next-oldest expiry: often the same second.
    "sliding log, Reset its oldest request's expiry rounded down, a decimal Retry-After",
    { meter: 'moving-window', headers: 'binding', resetRoundedDown: true, decimalRetryAfter: true },
  ],
];

const mustFailed = (r: Awaited<ReturnType<typeof runShape>>) =>
  r.checks.filter((c) => c.level === 'MUST' && c.outcome === 'fail').map((c) => `${c.id}: ${c.failures[0]?.message}`);

describe('correct limiters nobody here wrote: never failed', () => {
  it.for(ROWS)('%s: seeds 1-10', async ([, shape]) => {
    for (const seed of SEEDS) {
      const r = await runShape({ windows: WINDOWS, plans: PLANS, shape, latencyMs: [0, 30], seed });
      expect({ seed, failed: mustFailed(r) }).toEqual({ seed, failed: [] });
    }
  });
});

const TWINS: Array<[string, Omit<ShapeOptions, 'windows'>, ShapeFaults, string]> = [
  ['sliding-window counter admitting one more', ROWS[0]![1], { overAdmit: 1 }, 'quota.burst.exact'],
  ['sliding-window counter without Retry-After', ROWS[0]![1], { noRetryAfter: true }, 'quota.retry-after.present'],
  ['first-request window admitting one more', ROWS[1]![1], { overAdmit: 1 }, 'quota.minute.exact'],
  ['first-request window without a day quota', ROWS[1]![1], { noDay: true }, 'quota.day.exact'],
  ['aligned windows without Retry-After', ROWS[2]![1], { noRetryAfter: true }, 'quota.retry-after.present'],
];

describe('their faulty twins: failed on their own rule', () => {
  // Each twin changes one thing of a correct row above; the rule it breaks is named without the plan.
  it.for(TWINS)('%s', async ([, shape, faults, rule]) => {
    for (const seed of [1, 2, 3]) {
      const r = await runShape({
        windows: WINDOWS,
        plans: PLANS,
        shape: { ...shape, faults },
        latencyMs: [0, 30],
        seed,
      });
      // On its own rule, for some plan: the failed ids without their plan label.
      expect({ seed, failed: mustFailed(r).map((f) => f.split('[')[0]) }).toEqual({
        seed,
        failed: expect.arrayContaining([rule]),
      });
    }
  });
});

describe("a sliding-window counter whose Retry-After is the window's length (go-chi/httprate)", () => {
  // Waited out, the window after a 429 still weighs the last one and refuses before the figure, with fewer than
  // the figure of the key's requests within a window's length before it: outside every reading, whatever model
  // was told. Before, that was left unjudged ("a 429 charged to it cannot be told from a counter's carried weight").
  // As httprate writes it: two limiters chained (the day's headers on a 200), its estimate rounded.
  const shape: Omit<ShapeOptions, 'windows'> = {
    ...ROWS[0]![1],
    headers: { chain: ['minute', 'day'] },
    roundWeight: true,
    retryAfterWindow: true,
  };
  it('fails quota.rejected.next-window on seeds 1-10, with what the evidence proves', async () => {
    for (const seed of SEEDS) {
      const r = await runShape({ windows: WINDOWS, plans: PLANS, shape, latencyMs: [0, 30], seed });
      const next = mustFailed(r).filter((f) => f.startsWith('quota.rejected.next-window['));
      expect({ seed, next: next.length > 0 }).toEqual({ seed, next: true });
      for (const f of next)
        expect(f).toMatch(/though at most \d+ of this key's requests .* can have reached the server within 3 s/);
    }
  });
});

describe('two chained limiters each adding its own headers (ulule/limiter, no Retry-After)', () => {
  // An admitted answer carries "10, 60" as X-RateLimit-Limit, a day 429 too: §8.2's headers are broken, and the 429
  // has no Retry-After; nothing else is its fault. (A live run whose day search met such 429s and failed the day
  // "without a day-quota 429" is kept as journal `ulule`.)
  const shape: Omit<ShapeOptions, 'windows'> = {
    meter: 'first-use',
    headers: { chain: ['minute', 'day'], joined: true },
    resetRoundedDown: true,
    faults: { noRetryAfter: true },
  };
  it('fails only quota.headers.valid and quota.retry-after.present on seeds 1-5', async () => {
    for (const seed of SEEDS.slice(0, 5)) {
      const r = await runShape({ windows: WINDOWS, plans: PLANS, shape, latencyMs: [0, 30], seed });
      const rules = new Set(mustFailed(r).map((f) => f.split('[')[0]));
      expect({ seed, rules: [...rules].sort() }).toEqual({
        seed,
        rules: ['quota.headers.valid', 'quota.retry-after.present'],
      });
    }
  });
});

describe("windows from a key's first request, Reset and Retry-After dates in UTC (sethvargo/go-limiter)", () => {
  // Two chained limiters, each a bucket refilled whole every window counted from the key's first request; both
  // headers name the window's end as a date rounded down to its second. Reset is no Unix time: the one finding. A
  // date that names the answer's own second is no "Retry-After 0", and a burst whose answers nothing places in a
  // window is not judged on a count two windows (or a spent day) can give.
  // 2 s windows ending 0.7 s into a second: a 429 late in a window names the second it was answered in.
  const windows = { minuteSeconds: 2, daySeconds: 20 };
  const plans = { free: { perMinute: 20, perDay: 100 }, pro: { perMinute: 40, perDay: 160 } };
  const shape: Omit<ShapeOptions, 'windows'> = {
    meter: 'aligned',
    originMs: FAKE_START_MS - 700,
    headers: { chain: ['minute', 'day'] },
    datedUtc: true,
  };
  it('fails only quota.headers.valid on seeds 1-5', async () => {
    for (const seed of SEEDS.slice(0, 5)) {
      const r = await runShape({ windows, plans, shape, latencyMs: [0, 5], seed });
      const rules = new Set(mustFailed(r).map((f) => f.split('[')[0]));
      expect({ seed, rules: [...rules] }).toEqual({ seed, rules: ['quota.headers.valid'] });
    }
  });
});
