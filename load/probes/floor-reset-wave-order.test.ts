// rate-limiter-flexible's RateLimiterRedis (testkit/limiters rlf-redis) writes Reset = Math.floor((now +
// msBeforeNext) / 1000): a window ending within a millisecond or two of a whole second is named as either of
// two adjacent seconds, answer by answer. serverOrder (waves.ts) puts the earlier Reset first, so a wave of the
// day countdown (a 200 reports the day quota) came out with its last-decided answer first: "Remaining went from
// 117 to 107 across one admitted request" failed the correct server in about one bench run of ten. Such a
// wave's order rests on the rounding alone: remainingCountdown also reads it in falling Remaining.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../core/exchange.ts';
import type { Verdict } from '../../report/check.ts';
import type { ShapeOptions } from '../../testkit/load/limiter-shapes.ts';
import { runShape } from '../../testkit/load/shape-run.ts';
import { remainingCountdown, unorderedWavesByRemaining } from './judge.ts';
import type { ModelVerdict } from './models/minute-count.ts';
import type { Observation } from './observe.ts';
import { serverOrder } from './waves.ts';

const windows = { minuteSeconds: 2, daySeconds: 20 };
const scope = { ctx: { windows }, k: { plan: { name: 'pro', perMinute: 40, perDay: 160 } } };
/** The day window's end: just past a whole second, named S or S - 1 by the floor. */
const S = 1795906775;
const ex = {} as Exchange;
/** An admitted answer of the pro day quota (Limit 160), sent and answered at these local ms. */
const answer = (remaining: number, sentLocal: number, receivedLocal: number, reset = S): Observation => ({
  ex,
  status: 200,
  admitted: true,
  quota: 'day',
  rate: { limit: 160, remaining, reset },
  serverMs: receivedLocal,
  sentLocal,
  receivedLocal,
});
const outcomes = (vs: Verdict[]): string[] => vs.map((v) => v.kind);
const judge = (admitted: Observation[], model: ModelVerdict['model'] = 'unknown') =>
  outcomes(remainingCountdown(scope, { admitted, over: false, endMs: 0 }, { model, why: 'test' }));
/** The count up to Remaining 117, one request at a time (3 ms each), then one wave sent at 100 (answered 110..119). */
const lead = Array.from({ length: 10 }, (_, i) => answer(126 - i, 3 * i, 3 * i + 2));
const wave = (resets: (remaining: number) => number, remainings = [116, 115, 114, 113, 112, 111, 110, 109, 108, 107]) =>
  serverOrder(remainings.map((r, i) => answer(r, 100, 110 + i, resets(r))));

describe('a wave whose floor-rounded Reset names one window end as two adjacent seconds', () => {
  const flipped = wave((r) => (r === 107 ? S - 1 : S));

  it('is put in Reset order by serverOrder: the last-decided answer first', () => {
    expect(flipped.map((o) => o.rate!.remaining)).toEqual([107, 116, 115, 114, 113, 112, 111, 110, 109, 108]);
  });

  it('passes the countdown whatever the model: read in falling Remaining, it counts down by one', () => {
    expect(judge([...lead, ...flipped])).toEqual(['pass']);
    expect(judge([...lead, ...flipped], 'fixed')).toEqual(['pass']);
    expect(unorderedWavesByRemaining([...lead, ...flipped]).map((o) => o.rate!.remaining)).toEqual(
      Array.from({ length: 20 }, (_, i) => 126 - i),
    );
  });

  it('still fails a wave that skips a value in every order', () => {
    const skips = wave((r) => (r === 107 ? S - 1 : S), [116, 115, 114, 113, 111, 110, 109, 108, 107, 106]);
    expect(judge([...lead, ...skips])).toEqual(['fail']);
  });

  it('still reads Resets further apart than their rounding in Reset order (a bucket grows its Reset per request)', () => {
    expect(judge([...lead, ...wave((r) => (r === 107 ? S - 2 : S))])).toEqual(['fail']);
  });

  it('still fails the drop between waves, whose order the clock shows', () => {
    const later = [answer(107, 200, 210, S - 1), answer(116, 220, 230)];
    expect(judge([...lead, ...later])).toEqual(['fail']);
  });
});

describe('rlf-redis in virtual time: two limiters (a 200 reports the day), Reset floored after a late clock read', () => {
  const plans = { free: { perMinute: 20, perDay: 100 }, pro: { perMinute: 40, perDay: 160 } };
  // The server's clock puts each window's end a few ms before a whole second (skew), and each answer's Reset is
  // floored from the clock read 0..22 ms after counting: one end reads as two adjacent seconds. Before the fix,
  // each of these (seed, skew) failed "Remaining went from 115 to 108 across one admitted request" or alike.
  const shape = (faults?: ShapeOptions['faults']): Omit<ShapeOptions, 'windows'> => ({
    meter: 'first-use',
    headers: { chain: ['minute', 'day'] },
    resetRoundedDown: true,
    resetReadLateMs: (n) => (n * 7) % 23,
    faults,
  });
  const CASES: Array<[number, number]> = [
    [1, 250],
    [7, 250],
    [12, 270],
    [24, 270],
    [27, 290],
  ];
  it.for(CASES)('correct: passes with every MUST judged (seed %i, skew %i ms)', async ([seed, skewMs]) => {
    const r = await runShape({ windows, plans, shape: shape(), latencyMs: [30, 90], seed, skewMs });
    expect({ failed: r.failed, unjudged: r.unjudged }).toEqual({ failed: [], unjudged: [] });
  });

  it.for(CASES)('Remaining +1 still fails quota.headers.remaining (seed %i, skew %i ms)', async ([seed, skewMs]) => {
    const faults = { remainingPlusOne: true };
    const r = await runShape({
      windows,
      plans,
      shape: shape(faults),
      latencyMs: [30, 90],
      seed,
      skewMs,
      only: ['minute'],
    });
    expect(r.failed.map((l) => l.split(':')[0])).toContain('quota.headers.remaining[free]');
  });
});
