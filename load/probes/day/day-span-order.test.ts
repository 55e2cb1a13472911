// A refilling day (token bucket, GCRA; --only day, or two limiters: its model told from its own Resets) is
// judged on how many it admitted within one day window: never more than perDay plus what it refilled over
// the span the server can have taken between them (models/allowance.ts, the floor of the refill). That span
// runs from a set's first send to its LAST ANSWER (observe.ts localSpan), not to the answer of its latest
// send: in a wave the two differ, and the shorter span would put a correct day's bound one short. A day that
// admits more than a refilling one can is failed (its twin here admits 5 more a day).
import { describe, expect, it } from 'vitest';
import type { ShapeOptions } from '../../../testkit/load/limiter-shapes.ts';
import { BUCKET_DECLARED, runShape } from '../../../testkit/load/shape-run.ts';

const windows = { minuteSeconds: 3, daySeconds: 45 };
const plans = { free: { perMinute: 60, perDay: 600 }, pro: { perMinute: 300, perDay: 1200 } };
const TWO_GCRA: Omit<ShapeOptions, 'windows'> = { meter: 'gcra', headers: { chain: ['minute', 'day'] } };
const BUCKET: Omit<ShapeOptions, 'windows'> = { meter: 'token-bucket', headers: 'binding' };
const dayExact = (r: Awaited<ReturnType<typeof runShape>>) => r.checks.find((c) => c.id === 'quota.day.exact[pro]')!;

// The runs that failed on main (each of these 5 did).
const FAILED_BEFORE: Array<{ name: string; shape: Omit<ShapeOptions, 'windows'>; seed: number; skewMs: number }> = [
  { name: 'two GCRA limiters', shape: TWO_GCRA, seed: 22, skewMs: 40_000 },
  { name: 'two GCRA limiters', shape: TWO_GCRA, seed: 6, skewMs: 0 },
  { name: 'two token buckets', shape: { ...TWO_GCRA, meter: 'token-bucket' }, seed: 22, skewMs: 0 },
  { name: 'one token bucket', shape: BUCKET, seed: 7, skewMs: 40_000 },
  { name: 'one GCRA', shape: { ...BUCKET, meter: 'gcra' }, seed: 7, skewMs: 0 },
];

describe('a refilling day paced in waves (--only day, 0-30 ms each way)', () => {
  it.for(FAILED_BEFORE)(
    'passes a correct day: $name, seed $seed, clock off by $skewMs ms',
    async ({ shape, seed, skewMs }) => {
      const r = await runShape({
        declared: BUCKET_DECLARED,
        windows,
        plans,
        shape,
        latencyMs: [0, 30],
        skewMs,
        seed,
        only: ['day'],
      });
      expect(dayExact(r)).toMatchObject({ outcome: 'pass' });
    },
  );

  it.for(FAILED_BEFORE)(
    'fails its twin admitting 5 more a day: $name, seed $seed, clock off by $skewMs ms',
    async ({ shape, seed, skewMs }) => {
      const r = await runShape({
        declared: BUCKET_DECLARED,
        windows,
        plans,
        shape: { ...shape, faults: { dayOverAdmit: 5 } },
        latencyMs: [0, 30],
        skewMs,
        seed,
        only: ['day'],
      });
      expect(dayExact(r).outcome).toBe('fail');
      expect(dayExact(r).failures[0]?.message).toMatch(
        /requests admitted within one day window \(45 s\); the plan allows 1200, a token-bucket limiter at most/,
      );
    },
  );
});
