// Two independent GCRA limiters (throttled, redis-cell: one per quota, each writing its own X-RateLimit-*, the
// day's last) are a correct server: a day refilled perDay a day (spec/GAPS.md "Requests per day"). Paced at the
// minute figure, a few requests a second above the day's refill, such a day need not run dry within the day
// probe's span: 600 + 600 × 95/45 = 1866 may be admitted over 95 s. So a day whose Resets rise faster than
// time (models/day-refill.ts) is told refilling from the answers of a search that gave up too, and judged as a
// bucket's day that gave up (unjudged within its refill); the unenforced twin, whose Resets do not rise, fails.
import { describe, expect, it } from 'vitest';
import type { ShapeOptions } from '../../../testkit/load/limiter-shapes.ts';
import { BUCKET_DECLARED, runShape } from '../../../testkit/load/shape-run.ts';

const windows = { minuteSeconds: 3, daySeconds: 45 };
const plans = { free: { perMinute: 60, perDay: 600 } };
const TWO_GCRA: Omit<ShapeOptions, 'windows'> = { meter: 'gcra', headers: { chain: ['minute', 'day'] } };
const dayExact = (r: Awaited<ReturnType<typeof runShape>>) => r.checks.find((c) => c.id === 'quota.day.exact[free]')!;

describe('a GCRA day that did not run dry within the day search, its model not told by the minute probe', () => {
  // It was unjudged ('within what a token-bucket day quota refills over that time') while the search paced
  // under the minute figure (waiting for each minute's Reset) and gave up after 2 days + 2 minutes or 3 x perDay.
  // Paced one window after each window's first answer (day.ts nextWindow) it runs dry at once; 50-150 ms away
  // the waves keep it at ~19 a second against a refill of 13.3, dry after ~103 s: a day its Resets show
  // refilling now searches for the paced run's span (waits.ts DAY_GIVE_UP.paced), and is judged.
  it.for([
    ['--only day, at once', ['day'], [0, 0]],
    ['--only day, 50-150 ms away', ['day'], [50, 150]],
    ['minute and day, 50-150 ms away', ['minute', 'day'], [50, 150]],
  ] as const)('is judged and passed on quota.day.exact: %s', async ([, only, latencyMs]) => {
    for (const seed of [1, 2, 3]) {
      const r = await runShape({
        declared: BUCKET_DECLARED,
        windows,
        plans,
        shape: TWO_GCRA,
        latencyMs: [...latencyMs],
        seed,
        only: [...only],
      });
      expect({ seed, outcome: dayExact(r).outcome }).toEqual({ seed, outcome: 'pass' });
    }
  });

  it('its unenforced twin (no day quota) is still failed', async () => {
    for (const seed of [1, 2, 3]) {
      const r = await runShape({
        declared: BUCKET_DECLARED,
        windows,
        plans,
        shape: { ...TWO_GCRA, faults: { noDay: true } },
        latencyMs: [50, 150],
        seed,
        only: ['day'],
      });
      expect(dayExact(r).outcome).toBe('fail');
    }
  });

  // Still undecidable: unjudged, and the fix says what would decide it (it had none).
  it('a day that neither ran dry nor admitted past its refill is unjudged with what would decide it', async () => {
    const far = await runShape({
      declared: BUCKET_DECLARED,
      windows,
      plans,
      shape: TWO_GCRA,
      latencyMs: [250, 400],
      seed: 1,
      only: ['minute', 'day'],
    });
    expect(dayExact(far)).toMatchObject({ outcome: 'skip', skipKind: 'unjudged' });
    expect(dayExact(far).fix).toMatch(
      /^a pace of at least 17\.4 requests a second \(this run kept [\d.]+; the minute figure allows 20\.0\): a target closer/,
    );
    const slow = { free: { perMinute: 60, perDay: 850 } };
    const near = await runShape({
      declared: BUCKET_DECLARED,
      windows,
      plans: slow,
      shape: TWO_GCRA,
      latencyMs: [0, 30],
      seed: 1,
      only: ['minute', 'day'],
    });
    expect(dayExact(near)).toMatchObject({ outcome: 'skip', skipKind: 'unjudged' });
    expect(dayExact(near).fix).toMatch(
      /^none at these figures within the probe's 147 s: the minute figure's pace runs a day of 850/,
    );
  });
});
