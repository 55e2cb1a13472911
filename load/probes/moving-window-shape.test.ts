// The `limits` library's moving window (slowapi `Limiter(strategy="moving-window")`; the library itself runs in
// testkit/limiters/, here its behaviour in virtual time, testkit/load/limiter-shapes.ts `movingWindow`): a log of
// the requests admitted in the last window, whose Reset is its OLDEST request's expiry. A correct limiter (§8:
// never more than the figure in any window): every MUST rule judged, none failed, told a sliding log. The
// request 1.1 s after the recovery keeps the recovery's Reset, as a first-request window's does: told that,
// the fixed-window rules would fail its burst and day count, so one more request once the recovery's window
// has ended tells the log apart (models/minute-count.ts afterNeeded).
import { describe, expect, it } from 'vitest';
import type { ShapeOptions, ShapeFaults } from '../../testkit/load/limiter-shapes.ts';
import { runShape, type RunShape } from '../../testkit/load/shape-run.ts';

type Shape = Omit<ShapeOptions, 'windows'>;

// Compressed windows and figures (3 s / 45 s), and the e2e proofs' (testkit/limiters/proofs.ts PROOF_PLANS).
const SETUPS: Array<[string, Pick<RunShape, 'windows' | 'plans'>]> = [
  [
    '3 s / 45 s',
    {
      windows: { minuteSeconds: 3, daySeconds: 45 },
      plans: { free: { perMinute: 60, perDay: 600 }, pro: { perMinute: 300, perDay: 1200 } },
    },
  ],
  [
    '2 s / 20 s',
    {
      windows: { minuteSeconds: 2, daySeconds: 20 },
      plans: { free: { perMinute: 20, perDay: 100 }, pro: { perMinute: 40, perDay: 160 } },
    },
  ],
];
const LATENCIES: Array<[number, number]> = [
  [0, 30],
  [50, 150],
];

const LOG: Shape = { meter: 'moving-window', headers: 'binding' };
/** As slowapi answers (testkit/limiters/python/app.py): Reset = expiry + 1 s with microseconds, headers read after counting, a cached Date. */
const SLOWAPI: Shape = {
  ...LOG,
  fractionalReset: true,
  resetLateMs: 1000,
  slowapiHeadersAfterMs: 3,
  dateLagMs: (n) => (n < 300 ? 800 : 0),
};

const must = (r: Awaited<ReturnType<typeof runShape>>) =>
  r.failed.filter((f) => r.checks.find((c) => f.startsWith(`${c.id}:`))?.level === 'MUST');
const modelsOf = (r: Awaited<ReturnType<typeof runShape>>) =>
  r.checks
    .filter((c) => c.id.startsWith('quota.model['))
    .map((c) => (c.observed as { model?: string } | undefined)?.model);

const cases = (shapes: Array<[string, Shape]>) =>
  shapes.flatMap(([name, shape]) =>
    SETUPS.flatMap(([setup, s]) =>
      LATENCIES.map(
        (latencyMs) => [`${name}, ${setup}, ${latencyMs.join('-')} ms each way`, shape, s, latencyMs] as const,
      ),
    ),
  );

describe("a moving window reporting its oldest request's expiry", () => {
  it.for(
    cases([
      ['whole-second Reset', LOG],
      ["slowapi's header forms", SLOWAPI],
    ]),
  )('is told a sliding log, every MUST judged, none failed: %s', async ([, shape, setup, latencyMs]) => {
    for (const seed of [1, 2, 3]) {
      const r = await runShape({ ...setup, shape, latencyMs: [...latencyMs], seed });
      expect({ seed, failed: must(r), unjudged: r.unjudged, models: modelsOf(r) }).toEqual({
        seed,
        failed: [],
        unjudged: [],
        models: ['sliding-log', 'sliding-log'],
      });
    }
  });

  it("with the server's clock 40 s ahead", async () => {
    const r = await runShape({ ...SETUPS[0]![1], shape: SLOWAPI, latencyMs: [0, 30], skewMs: 40_321, seed: 4 });
    expect({ failed: must(r), unjudged: r.unjudged, models: modelsOf(r) }).toEqual({
      failed: [],
      unjudged: [],
      models: ['sliding-log', 'sliding-log'],
    });
  });

  // The faulty twins: each fails a MUST check its fault breaks. overAdmit's and Remaining+1's lying Remaining
  // reads "fresh" to the tell (models/minute-count.ts afterNeeded): told fixed, they fail more than their own check.
  const FAULTS: Array<[string, ShapeFaults, string[]]> = [
    ['one more admitted per window', { overAdmit: 1 }, ['quota.minute.exact[free]', 'quota.headers.remaining[free]']],
    // As the real twin (testkit/limiters/python/app.py overAdmit): the headers report the plan, so only the
    // count can show it; told a log that counts each request a whole window, the count gets no allowance.
    [
      'one more admitted per window, headers of the plan',
      { overAdmit: 1, hideOverAdmit: true },
      ['quota.minute.exact[free]'],
    ],
    ['Remaining one too high', { remainingPlusOne: true }, ['quota.headers.remaining[free]']],
    ['no Retry-After', { noRetryAfter: true }, ['quota.retry-after.present[free]']],
    ['day not enforced', { noDay: true }, ['quota.day.exact[free]']],
  ];
  it.for(
    FAULTS.flatMap(([name, faults, checks]) =>
      SETUPS.flatMap(([setup, s]) =>
        LATENCIES.map(
          (latencyMs) => [`${name}, ${setup}, ${latencyMs.join('-')} ms`, faults, checks, s, latencyMs] as const,
        ),
      ),
    ),
  )('its faulty twin is still caught: %s', async ([, faults, checks, setup, latencyMs]) => {
    for (const seed of [1, 2]) {
      const r = await runShape({
        windows: setup.windows,
        plans: { free: setup.plans.free! },
        shape: { ...LOG, faults },
        latencyMs: [...latencyMs],
        seed,
      });
      const failed = must(r).map((f) => f.split(':')[0]);
      expect({ seed, caught: checks.some((c) => failed.includes(c)) }).toEqual({ seed, caught: true });
    }
  });
});
