// rate-limiter-flexible's RateLimiterRedis behind two replicas writes X-RateLimit-Reset as
// Math.floor((Date.now() + the key's PTTL) / 1000): a day window ending a millisecond past a second is
// named by one burst as 1795903338 (74 answers) and 1795903339 (6). Grouped by the exact Reset, the pro
// burst read "Remaining values of window day@1795903339: 92,93,98,99,100,101 (not distinct and
// contiguous)" on the correct server; the two groups are one window, whose values are distinct and
// contiguous. Float noise past the millisecond (slowapi's sliding-window counter) is one Reset too.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../../core/exchange.ts';
import { BURST_RULES, type BurstObservation } from './burst.ts';
import { CHECKS } from '../checks.ts';
import type { ModelVerdict } from '../models/minute-count.ts';
import type { Observation } from '../observe.ts';

const windows = { minuteSeconds: 2, daySeconds: 20 };
const plan = { name: 'pro', perMinute: 40, perDay: 160 };

const answer = (remaining: number, reset: number, quota: 'minute' | 'day' = 'day'): Observation => ({
  ex: {} as Exchange,
  status: 200,
  admitted: true,
  quota,
  rate: { limit: quota === 'day' ? 160 : 40, remaining, reset },
  serverMs: 0,
  sentLocal: 0,
  receivedLocal: 10,
});

const judge = (all: Observation[], model: ModelVerdict = { model: 'fixed', why: 'test' }) => {
  const rule = BURST_RULES.find((r) => r.check === CHECKS.burstRemaining)!;
  const o: BurstObservation = { scope: { ctx: { windows }, k: { plan } }, model, burst: { all, endMs: 0 } };
  return [rule.judge(o)].flat().map((v) => v.kind);
};

describe('quota.burst.remaining on Resets rounded either side of a second', () => {
  const values = Array.from({ length: 22 }, (_, i) => 80 + i);
  const split = (onLater: (v: number) => boolean) => values.map((v) => answer(v, onLater(v) ? 1795903339 : 1795903338));

  it('reads one window of a fixed limiter that named its end as two adjacent seconds', () => {
    expect(judge(split((v) => v === 92 || v === 93 || (v >= 98 && v <= 101)))).toEqual(['pass']);
  });

  it('reads Resets that differ past the millisecond as one', () => {
    expect(judge(values.map((v, i) => answer(v, 1795903338.0000105 + i * 1e-6)))).toEqual(['pass']);
  });

  it('still fails a repeated or skipped value within the merged window', () => {
    expect(judge([...split((v) => v > 95), answer(90, 1795903339)])).toEqual(['fail']);
    expect(judge(split((v) => v > 95).filter((o) => o.rate!.remaining !== 94))).toEqual(['fail']);
  });

  it('keeps windows a whole window apart as two (a 2 s minute and the next)', () => {
    const two = [answer(39, 1795903338, 'minute'), answer(38, 1795903338, 'minute'), answer(39, 1795903340, 'minute')];
    expect(judge(two)).toEqual(['pass']);
  });
});
