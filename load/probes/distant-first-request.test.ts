// express-rate-limit as a team sets it up (two limiters, minute then day, each writing its own
// X-RateLimit-*: a 200 reports the day; windows opened by a key's first request), 3 s / 30 s windows,
// answered 20–120 ms away each way, in virtual time. A minute probe whose headers do not show the minute
// window learns its end from the 429; sent one at a time, a distant target's window would end before its
// allowance did, spending two windows' worth learning nothing, and the key's day would run out before its
// burst and the window after its 429 are judged. Counted in waves, a correct server passes with every MUST
// judged.
import { describe, expect, it } from 'vitest';
import type { ShapeOptions } from '../../testkit/load/limiter-shapes.ts';
import { runShape } from '../../testkit/load/shape-run.ts';
import { seededStartMs } from '../../testkit/load/at-distance.ts';

const windows = { minuteSeconds: 3, daySeconds: 30 };
const plans = { free: { perMinute: 20, perDay: 100 }, pro: { perMinute: 40, perDay: 160 } };
const erl: Pick<ShapeOptions, 'meter' | 'headers'> = { meter: 'first-use', headers: { chain: ['minute', 'day'] } };

const atDistance = (seed: number) =>
  runShape({ windows, plans, shape: erl, latencyMs: [20, 120], seed, startMs: seededStartMs(seed) });

describe('express-rate-limit 20–120 ms away, 3 s / 30 s windows', () => {
  it.for([1, 2, 3, 4, 5, 6])('seed %i: PASS with every MUST judged', async (seed) => {
    const r = await atDistance(seed);
    // headers.applicable (SHOULD) is the true finding on two limiters: a 200 reports the day, the next 429 the minute.
    expect(r.failed.filter((f) => !f.startsWith('quota.headers.applicable['))).toEqual([]);
    expect(r.unjudged).toEqual([]);
  });
});

describe('its faulty twins at the same distance are still caught', () => {
  it.for([1, 2, 3])('seed %i: one more per minute window fails quota.minute.exact', async (seed) => {
    const r = await runShape({
      windows,
      plans,
      shape: { ...erl, faults: { overAdmit: 1 } },
      latencyMs: [20, 120],
      seed,
      only: ['minute'],
    });
    expect(r.failed.map((f) => f.split(':')[0])).toContain('quota.minute.exact[free]');
  });

  it.for([1, 2, 3])(
    'seed %i: Remaining one too high on admitted answers fails quota.headers.remaining',
    async (seed) => {
      const r = await runShape({
        windows,
        plans,
        shape: { ...erl, faults: { remainingPlusOne: true } },
        latencyMs: [20, 120],
        seed,
        only: ['minute'],
      });
      expect(r.failed.map((f) => f.split(':')[0])).toContain('quota.headers.remaining[free]');
    },
  );
});
