// Rate limiters as real services build them, in virtual time: each correct shape has every
// MUST rule of §8 judged (none skipped as could-not-judge) and none failed, also when its answers come back
// out of order, its clock is 40 s off with a Date cached for up to a second; each fault is still caught.
// The same limiters on the real libraries over real sockets: testkit/limiters/ (limiter-kit).
import { describe, expect, it } from 'vitest';
import type { ShapeOptions } from '../../testkit/load/limiter-shapes.ts';
import { declaredFor, runShape, type RunShape } from '../../testkit/load/shape-run.ts';

// 3 s / 45 s windows (compressed as a CI run compresses them); day figures a whole-second Reset rounded up still leaves room to reach.
const windows = { minuteSeconds: 3, daySeconds: 45 };
const plans = { free: { perMinute: 6, perDay: 48 }, pro: { perMinute: 10, perDay: 60 } };

type Shape = Omit<ShapeOptions, 'windows'>;
const SHAPES: Array<[string, Shape]> = [
  ['fixed windows aligned to the epoch, one limiter', { meter: 'aligned', headers: 'binding' }],
  [
    'windows opened by a first request, one limiter (rate-limiter-flexible)',
    { meter: 'first-use', headers: 'binding' },
  ],
  [
    "express-rate-limit: minute then day middleware, the day's headers on a 200, the minute's on its 429",
    { meter: 'first-use', headers: { chain: ['minute', 'day'] } },
  ],
  [
    "express-rate-limit: day then minute middleware (the last one's headers win)",
    { meter: 'first-use', headers: { chain: ['day', 'minute'] } },
  ],
  [
    'rate-limiter-flexible: two limiters, Retry-After in decimal seconds (msBeforeNext / 1000)',
    { meter: 'first-use', headers: { chain: ['minute', 'day'] }, decimalRetryAfter: true },
  ],
  ['token bucket of the minute figure, continuous refill', { meter: 'token-bucket', headers: 'binding' }],
  ['GCRA (redis-cell, throttled)', { meter: 'gcra', headers: 'binding' }],
  [
    'the limits library\'s moving window (slowapi strategy="moving-window"): a log, Reset = its oldest request\'s expiry',
    { meter: 'moving-window', headers: 'binding' },
  ],
  [
    'slowapi: first-request windows, Reset with microseconds a second after expiry, Date cached up to a second',
    {
      meter: 'first-use',
      headers: 'binding',
      fractionalReset: true,
      resetLateMs: 1000,
      dateLagMs: (n) => (n * 397) % 1000,
    },
  ],
];

const CONDITIONS: Array<[string, Partial<RunShape>]> = [
  ['at once', {}],
  ['answers out of order (0–60 ms each way, random)', { latencyMs: [0, 60] }],
  ['server clock 40 s ahead', { skewMs: 40_321 }],
];

const must = (r: Awaited<ReturnType<typeof runShape>>) =>
  r.failed.filter((f) => r.checks.find((c) => f.startsWith(`${c.id}:`))?.level === 'MUST');

describe('a correct limiter of every shape is judged whole and passes', () => {
  it.for(
    SHAPES.flatMap(([name, shape]) => CONDITIONS.map(([cond, extra]) => [`${name}, ${cond}`, shape, extra] as const)),
  )('%s', async ([, shape, extra]) => {
    for (const seed of [1, 2, 3]) {
      const r = await runShape({ windows, plans, shape, ...extra, seed, declared: declaredFor(shape) });
      expect({ seed, failed: must(r), unjudged: r.unjudged }).toEqual({ seed, failed: [], unjudged: [] });
    }
  });

  it('first-request windows are named as such, not "sliding-log"', async () => {
    const r = await runShape({ windows, plans, shape: { meter: 'first-use', headers: 'binding' } });
    const told = r.checks.filter((c) => c.id.startsWith('quota.model[')).map((c) => c.observed);
    expect(told).toEqual([
      expect.objectContaining({ model: 'fixed', start: 'first-request' }),
      expect.objectContaining({ model: 'fixed', start: 'first-request' }),
    ]);
  });

  // §8.2 "the request limit currently applicable": two middlewares each writing their own headers tell a
  // client Remaining > 0 and refuse its next request. Correct, and what clients get wrong: SHOULD.
  it.for(SHAPES.map(([name, shape]) => [name, shape] as const))(
    "%s: a SHOULD finding exactly where a 429 follows another quota's Remaining > 0",
    async ([, shape]) => {
      const r = await runShape({ windows, plans, shape, declared: declaredFor(shape) });
      const applicable = r.failed.filter((f) => f.startsWith('quota.headers.applicable['));
      expect(applicable.length > 0).toBe(shape.headers !== 'binding');
      expect(r.checks.find((c) => c.id === 'quota.headers.applicable[free]')?.level).toBe('SHOULD');
    },
  );

  it('a decimal Retry-After is a SHOULD finding only, and read as the time to wait', async () => {
    const r = await runShape({
      windows,
      plans,
      shape: { meter: 'first-use', headers: 'binding', decimalRetryAfter: true },
      latencyMs: [1, 30],
    });
    expect(r.failed.map((f) => f.split(':')[0])).toEqual([
      'quota.retry-after.form[free]',
      'quota.retry-after.form[pro]',
    ]);
    expect(r.checks.find((c) => c.id === 'quota.retry-after.form[free]')?.level).toBe('SHOULD');
    expect(r.unjudged).toEqual([]);
  });

  // `petcert quota` identifies the target first, with the first key (cli/identify.ts): requests the probes
  // never see, which the day counts. Told to the probes, a correct server is judged whole and passes.
  it.for(SHAPES.map(([name, shape]) => [name, shape] as const))(
    '%s: requests sent before the probes count against the day',
    async ([, shape]) => {
      const r = await runShape({
        windows,
        plans,
        shape,
        before: { requests: 2, told: true },
        declared: declaredFor(shape),
      });
      expect({ failed: must(r), unjudged: r.unjudged }).toEqual({ failed: [], unjudged: [] });
    },
  );

  it('a fractional Reset is a SHOULD finding only, and every other rule is still judged', async () => {
    const r = await runShape({
      windows,
      plans,
      shape: { meter: 'first-use', headers: 'binding', fractionalReset: true },
    });
    expect(r.failed.map((f) => f.split(':')[0])).toEqual([
      'quota.headers.reset-integer[free]',
      'quota.headers.reset-integer[pro]',
    ]);
    expect(r.checks.find((c) => c.id === 'quota.headers.reset-integer[free]')?.level).toBe('SHOULD');
    expect(r.unjudged).toEqual([]);
  });
});

// A correct server answering in 150 ms, windows compressed to 3 s / 45 s (free 60/600, pro 300/1,200): one
// request at a time cannot fit a count in a window. Counted in waves, every MUST check is judged.
describe('a distant target (150 ms round trip, 5 % of the window) is judged whole and passes', () => {
  const far = {
    windows,
    plans: { free: { perMinute: 60, perDay: 600 }, pro: { perMinute: 300, perDay: 1200 } },
    latencyMs: [60, 90] as [number, number],
  };
  const FAR: Array<[string, Shape]> = [
    ['fixed windows aligned to the epoch', { meter: 'aligned', headers: 'binding' }],
    ['windows opened by a first request', { meter: 'first-use', headers: 'binding' }],
    ['express-rate-limit, minute then day middleware', { meter: 'first-use', headers: { chain: ['minute', 'day'] } }],
    [
      'token bucket of the minute figure, fixed day',
      { meter: 'token-bucket', dayMeter: 'aligned', headers: 'binding' },
    ],
    ['GCRA of the minute figure, fixed day', { meter: 'gcra', dayMeter: 'aligned', headers: 'binding' }],
  ];
  it.for(FAR)('%s', async ([, shape]) => {
    const r = await runShape({ ...far, shape, declared: declaredFor(shape) });
    expect({ failed: must(r), unjudged: r.unjudged }).toEqual({ failed: [], unjudged: [] });
  });
  it('over-admission is still caught at that distance', async () => {
    const r = await runShape({ ...far, shape: { meter: 'aligned', headers: 'binding', faults: { overAdmit: 1 } } });
    expect(must(r).map((f) => f.split(':')[0])).toContain('quota.minute.exact[free]');
  });
});

describe('faults in real-world shapes are still caught', () => {
  const FAULTS: Array<[string, Shape, string]> = [
    [
      'over-admission, first-request windows',
      { meter: 'first-use', headers: 'binding', faults: { overAdmit: 1 } },
      'quota.minute.exact[free]',
    ],
    [
      'over-admission, two middlewares',
      { meter: 'first-use', headers: { chain: ['minute', 'day'] }, faults: { overAdmit: 1 } },
      'quota.minute.exact[free]',
    ],
    [
      "over-admission, two middlewares, the day's headers on a 200, a distant target",
      { meter: 'first-use', headers: { chain: ['minute', 'day'] }, faults: { overAdmit: 1 } },
      'quota.minute.exact[free]',
    ],
    [
      'over-admission, token bucket',
      { meter: 'token-bucket', headers: 'binding', faults: { overAdmit: 2 } },
      'quota.minute.exact[free]',
    ],
    [
      'Remaining off by one, first-request windows',
      { meter: 'first-use', headers: 'binding', faults: { remainingOffByOne: true } },
      'quota.headers.remaining[free]',
    ],
    [
      'Remaining off by one, GCRA',
      { meter: 'gcra', headers: 'binding', faults: { remainingOffByOne: true } },
      'quota.headers.remaining[free]',
    ],
    [
      "Remaining one too high on the day's headers, two middlewares",
      { meter: 'first-use', headers: { chain: ['minute', 'day'] }, faults: { remainingPlusOne: true } },
      'quota.headers.remaining[free]',
    ],
    [
      "Remaining one too high on the day's headers, two middlewares, a distant target",
      { meter: 'first-use', headers: { chain: ['minute', 'day'] }, faults: { remainingPlusOne: true } },
      'quota.headers.remaining[free]',
    ],
    [
      'no Retry-After, two middlewares',
      { meter: 'first-use', headers: { chain: ['minute', 'day'] }, faults: { noRetryAfter: true } },
      'quota.retry-after.present[free]',
    ],
    [
      'no Retry-After, slowapi',
      { meter: 'first-use', headers: 'binding', fractionalReset: true, faults: { noRetryAfter: true } },
      'quota.retry-after.present[free]',
    ],
    [
      'day not enforced, two middlewares',
      { meter: 'first-use', headers: { chain: ['minute', 'day'] }, faults: { noDay: true } },
      'quota.day.exact[free]',
    ],
    [
      'day not enforced, first-request windows',
      { meter: 'first-use', headers: 'binding', faults: { noDay: true } },
      'quota.day.exact[free]',
    ],
    ['day not enforced, GCRA', { meter: 'gcra', headers: 'binding', faults: { noDay: true } }, 'quota.day.exact[free]'],
  ];
  it.for(FAULTS)('%s → %s', async ([name, shape, check]) => {
    const latencyMs: [number, number] = name.includes('distant') ? [60, 90] : [0, 30];
    // Declared as what it runs: a bucket's faults are caught even judged as a bucket.
    const r = await runShape({ windows, plans, shape, latencyMs, declared: declaredFor(shape) });
    expect(must(r).map((f) => f.split(':')[0])).toContain(check);
  });
});
