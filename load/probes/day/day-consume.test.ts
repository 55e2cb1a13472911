// A limiter that counts its 429s against the day (the reference's rejectedConsume variant, §8 leaves it
// open: quota.rejected.consume) answering 20–120 ms away, so that the day count goes out in waves: the
// wave that spends the day brings back more than one refusal. Only the requests the server counted before
// the day ran out may be added to the admitted ones (day-tally.ts); a correct server passes quota.day.exact.
import { describe, expect, it } from 'vitest';
import { parsePlansFile } from '../../../spec/plans.ts';
import { probesAtDistance } from '../../../testkit/load/at-distance.ts';

const plans = parsePlansFile({
  windows: { minuteSeconds: 2, daySeconds: 12 },
  plans: { free: { perMinute: 3, perDay: 14 }, pro: { perMinute: 5, perDay: 24 } },
});
const keys = { pc_free_consume_aaaa: 'free', pc_pro_consume_bbbbb: 'pro' };

const consumingAtDistance = (seed: number) =>
  probesAtDistance(seed, { plans, keys, variants: { rejectedConsume: true } });

describe('a day quota that counts 429s, counted in waves', () => {
  // Seeds 1 to 10 (3, 6, 9 passed anyway): the last wave brought back the day's 429 and another refusal of
  // the spent day, each failed quota.day.exact ("17 requests admitted in one day window before the day 429;
  // the plan allows 24"). Seeds 11 and 17: a minute-quota 429 in flight beside the day's 429 (which one
  // the server counted first, the answers do not tell: the slow path counts a day, its end one at a time).
  it.for([1, 2, 4, 5, 7, 8, 10, 11, 17])('seed %i: quota.day.exact passes on the correct server', async (seed) => {
    const r = await consumingAtDistance(seed);
    const day = r.checks.filter((c) => c.id.startsWith('quota.day.exact['));
    expect(day.map((c) => `${c.id}: ${c.outcome} ${c.failures[0]?.message ?? ''}`)).toEqual([
      'quota.day.exact[free]: pass ',
      'quota.day.exact[pro]: pass ',
    ]);
  });
});
