// A token-bucket or GCRA day whose model the minute probe did not tell (--only day): metered limiters report
// the quota with fewer left, so its day shows only in the last few answers before its 429, too few for its
// Reset to be seen rising (models/day-refill.ts), and the day looks fixed but not whole. After waiting out its
// 429, one request shows what it gives back (models/day-refill.ts gaveBackFew): a few requests, not a whole
// fresh day, and it is judged as a refilling day. A count of a fresh day that passes perDay with the model
// unknown is unjudged within what a refill explains, as the tally's is; a fixed day that over-admits is then
// unjudged with the fix to run the minute probe, and failed with it.
import { describe, expect, it } from 'vitest';
import type { ShapeOptions } from '../../../testkit/load/limiter-shapes.ts';
import { BUCKET_DECLARED, runShape } from '../../../testkit/load/shape-run.ts';

// testkit/limiters/proofs.ts ROOMY_PLANS: the free day refills 5/s against a 10/s minute pace.
const windows = { minuteSeconds: 2, daySeconds: 20 };
const plans = { free: { perMinute: 20, perDay: 100 } };
const BUCKET: Omit<ShapeOptions, 'windows'> = { meter: 'token-bucket', headers: 'binding' };
const dayExact = (r: Awaited<ReturnType<typeof runShape>>) => r.checks.find((c) => c.id === 'quota.day.exact[free]')!;

describe('a bucket day, model not told, whose answers show the day only at its end (--only day, 0-10 ms)', () => {
  it.for([
    ['token bucket', 'token-bucket'],
    ['GCRA', 'gcra'],
  ] as const)('%s: judged and passed', async ([, meter]) => {
    for (const seed of [1, 2, 4, 5, 6]) {
      const r = await runShape({
        declared: BUCKET_DECLARED,
        windows,
        plans,
        shape: { ...BUCKET, meter },
        latencyMs: [0, 10],
        seed,
        only: ['day'],
      });
      expect({ seed, failed: r.failed, unjudged: r.unjudged }).toEqual({ seed, failed: [], unjudged: [] });
    }
  });

  it('a fresh day counted past perDay is not failed (seed 3: the tally could not settle)', async () => {
    const r = await runShape({
      declared: BUCKET_DECLARED,
      windows,
      plans,
      shape: BUCKET,
      latencyMs: [0, 10],
      seed: 3,
      only: ['day'],
    });
    expect(dayExact(r)).toMatchObject({
      outcome: 'skip',
      skipKind: 'unjudged',
      fix: expect.stringMatching(/^run the minute probe too/),
    });
  });

  it('its unenforced twin is failed', async () => {
    for (const seed of [1, 2, 3]) {
      const r = await runShape({
        declared: BUCKET_DECLARED,
        windows,
        plans,
        shape: { ...BUCKET, faults: { noDay: true } },
        latencyMs: [0, 10],
        seed,
        only: ['day'],
      });
      expect(dayExact(r).outcome).toBe('fail');
    }
  });

  it('a fixed day admitting one more is never passed: unjudged alone, failed with the minute probe', async () => {
    const shape: Omit<ShapeOptions, 'windows'> = {
      meter: 'first-use',
      headers: 'binding',
      faults: { dayOverAdmit: 1 },
    };
    for (const seed of [1, 2, 3]) {
      const alone = await runShape({
        declared: BUCKET_DECLARED,
        windows,
        plans,
        shape,
        latencyMs: [0, 30],
        seed,
        only: ['day'],
      });
      expect(dayExact(alone)).toMatchObject({ outcome: 'skip', skipKind: 'unjudged' });
      const told = await runShape({
        declared: BUCKET_DECLARED,
        windows,
        plans,
        shape,
        latencyMs: [0, 30],
        seed: seed + 1,
        only: ['minute', 'day'],
      });
      expect(dayExact(told).outcome).toBe('fail');
    }
  });

  it("a wait for the day to give back that --max-wait forbids is not taken: the tally's reason, not a probe cut short", async () => {
    // The tally counts 110 (a refill may explain it, model unknown): waiting out the day's 429 needs ~8 s.
    const shape: Omit<ShapeOptions, 'windows'> = {
      meter: 'first-use',
      headers: 'binding',
      faults: { dayOverAdmit: 30 },
    };
    for (const seed of [1, 2, 3]) {
      const r = await runShape({
        declared: BUCKET_DECLARED,
        windows,
        plans,
        shape,
        latencyMs: [0, 10],
        seed,
        only: ['day'],
        maxWaitMs: 5000,
      });
      expect(dayExact(r)).toMatchObject({
        outcome: 'skip',
        skipKind: 'unjudged',
        fix: expect.stringMatching(/^run the minute probe too/),
      });
      expect(dayExact(r).skipReason).toMatch(/^110 requests admitted in one day window/);
    }
  });
});
