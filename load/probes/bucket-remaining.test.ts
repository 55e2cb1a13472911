// Remaining one too high on a refilling limiter's admitted answers (the token-bucket and GCRA
// twins' wrongRemaining). Its attribution: quota.headers.remaining, never quota.minute.exact (the server admits its
// figure). A bucket one token short reads "full" (Limit-1) with the fault, and a count from there gets its 429
// one request early; in waves the pair before the 429 is not a sequential one judge.ts `applicable` reads. So the
// count's own answers are read (fewestBeforeRefusal: the last request admitted before a minute 429 left 0),
// and a short count whose headers lied is counted again after an idle window (minute.ts recountIfDoubtful).
// In virtual time, ten seeds of answers out of order each, after a request identifying the target.
import { describe, expect, it } from 'vitest';
import type { ShapeOptions } from '../../testkit/load/limiter-shapes.ts';
import { BUCKET_DECLARED, runShape } from '../../testkit/load/shape-run.ts';
import { fewestBeforeRefusal } from './judge.ts';
import type { Observation } from './observe.ts';
import type { WindowCount } from './window.ts';

const windows = { minuteSeconds: 2, daySeconds: 20 };
const plans = { free: { perMinute: 20, perDay: 100 } };
const SEEDS = Array.from({ length: 10 }, (_, i) => i + 1);
const ids = (lines: string[]): string[] => lines.map((l) => l.split(':')[0]!);

describe.each([
  ['token bucket', 'token-bucket'],
  ['GCRA', 'gcra'],
] as const)('%s, the minute probe after identifying the target', (_, meter) => {
  it.for(SEEDS)('Remaining +1: fails quota.headers.remaining, not quota.minute.exact (seed %i)', async (seed) => {
    const r = await runShape({
      declared: BUCKET_DECLARED,
      windows,
      plans,
      shape: { meter, headers: 'binding', faults: { remainingPlusOne: true } },
      latencyMs: [0, 30],
      seed,
      only: ['minute'],
      before: { requests: 1, told: true },
    });
    expect(ids(r.failed)).toContain('quota.headers.remaining[free]');
    expect(ids(r.failed)).not.toContain('quota.minute.exact[free]');
  });

  it.for(SEEDS)('correct: passes with every MUST judged (seed %i)', async (seed) => {
    const r = await runShape({
      declared: BUCKET_DECLARED,
      windows,
      plans,
      shape: { meter, headers: 'binding' },
      latencyMs: [0, 30],
      seed,
      only: ['minute'],
      before: { requests: 1, told: true },
    });
    expect({ failed: r.failed, unjudged: r.unjudged }).toEqual({ failed: [], unjudged: [] });
  });
});

describe('two limiters (express-rate-limit), the day opened by identifying the target', () => {
  it.for(SEEDS)(
    "Remaining +1 on the day's headers fails quota.headers.remaining --only minute (seed %i)",
    async (seed) => {
      const shape: Omit<ShapeOptions, 'windows'> = {
        meter: 'first-use',
        headers: { chain: ['minute', 'day'] },
        faults: { remainingPlusOne: true },
      };
      const r = await runShape({
        declared: BUCKET_DECLARED,
        windows,
        plans,
        shape,
        latencyMs: [0, 30],
        seed,
        only: ['minute'],
        before: { requests: 2, told: true },
      });
      expect(ids(r.failed)).toContain('quota.headers.remaining[free]');
    },
  );
});

describe('fewestBeforeRefusal (the count refused by the minute quota: its last admitted request left 0)', () => {
  const answer = (remaining: number, quota: 'minute' | 'day' = 'minute', status = 200) =>
    ({
      admitted: status === 200,
      status,
      quota,
      rate: { limit: quota === 'minute' ? 20 : 100, remaining, reset: 1 },
    }) as Observation;
  const count = (admitted: Observation[], rejected?: Observation): WindowCount => ({
    admitted,
    over: false,
    endMs: 0,
    ...(rejected ? { rejected } : {}),
  });

  it('reads the fewest Remaining of the count, in any order its waves came back', () => {
    expect(fewestBeforeRefusal(count([answer(3), answer(1), answer(2)], answer(0, 'minute', 429)))).toBe(1);
    expect(fewestBeforeRefusal(count([answer(2), answer(0), answer(1)], answer(0, 'minute', 429)))).toBe(0);
  });

  it('says nothing unless the count ended in a 429 of the minute quota and every answer reports the minute quota', () => {
    expect(fewestBeforeRefusal(count([answer(3), answer(1)]))).toBeUndefined();
    expect(fewestBeforeRefusal(count([answer(3), answer(1)], answer(0, 'day', 429)))).toBeUndefined();
    expect(fewestBeforeRefusal(count([answer(3), answer(90, 'day')], answer(0, 'minute', 429)))).toBeUndefined();
  });
});

describe('fixed windows whose headers report the minute (slowapi, express-rate-limit day first), Remaining +1', () => {
  it.for(SEEDS)('fails quota.headers.remaining, never quota.rejected.next-window (seed %i)', async (seed) => {
    const shape: Omit<ShapeOptions, 'windows'> = {
      meter: 'first-use',
      headers: 'binding',
      faults: { remainingPlusOne: true },
    };
    const r = await runShape({
      declared: BUCKET_DECLARED,
      windows,
      plans,
      shape,
      latencyMs: [0, 30],
      seed,
      only: ['minute'],
      before: { requests: 1, told: true },
    });
    expect(ids(r.failed)).toContain('quota.headers.remaining[free]');
    expect(ids(r.failed)).not.toContain('quota.rejected.next-window[free]');
  });
});
