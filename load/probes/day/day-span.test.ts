// The day probe's declared worst case (waits.ts) against what it does. Each of its two phases gives up
// when its span has run out (day.ts: finding the day's end after 2 days + 2 minutes, counting a fresh day
// after 1 day + 2 minutes), but it looks only between waits: the wait for the next minute window that was
// under way runs on past the span, up to one minute wait per phase. The declaration counted the spans and
// not those waits (3D + 4M, while up to about 3D + 6M can pass).
import { describe, expect, it } from 'vitest';
import { DATE_SLACK_MS } from '../../../spec/ratelimit.ts';
import { parsePlansFile, resolvePlan } from '../../../spec/plans.ts';
import { inProcessTarget, contextOn } from '../../../testkit/load/in-process.ts';
import { waitCapMs } from '../bounds.ts';
import { runProbes } from '../run.ts';
import { PROBE_WAITS, waitsMs } from '../waits.ts';

const M = 2_000;
const D = 20_000;
// 30 per day at the minute pace against 25: the day binds; no day is too short to count it (the probe never
// waits for a longer one); the pace over the whole span stays under 3 days' figure (the other give-up).
const plans = parsePlansFile({
  windows: { minuteSeconds: M / 1000, daySeconds: D / 1000 },
  plans: { free: { perMinute: 3, perDay: 25 } },
});
const key = 'pc_free_dayspan_aaaaa';

describe("the day probe's declaration covers each phase's give-up and the wait under way when it comes", () => {
  it('a server that never enforces the day: the search for its end runs past its span by a minute wait at most', async () => {
    const t = inProcessTarget({
      plans,
      keys: { [key]: 'free' },
      faults: { noDayQuota: true },
      skewMs: 0,
      startMs: Date.UTC(2030, 0, 1) + 500,
    });
    const ctx = contextOn(t, plans.windows);
    const start = t.clock.now();
    const r = await runProbes(ctx, [{ key, plan: resolvePlan(plans, 'free') }], ['day'], [key]);
    const searchMs = t.clock.now() - start;
    expect(r.checks.find((c) => c.id === 'quota.day.exact[free]')?.outcome).toBe('fail');
    // It gave up only once its span (2D + 2M) had passed, and at most a minute wait later.
    expect(searchMs).toBeGreaterThan(2 * D + 2 * M);
    expect(searchMs).toBeLessThanOrEqual(2 * D + 2 * M + M + DATE_SLACK_MS);
    // The worst case: both day waits, this search, and a count of a fresh day ending the same way (D + 2M
    // and the wait under way). The declaration without those minute waits was short by what this search ran over.
    const count = D + 2 * M + M + DATE_SLACK_MS;
    const dayWaits = 2 * (D + DATE_SLACK_MS);
    expect(dayWaits + searchMs + count).toBeLessThanOrEqual(
      waitsMs(PROBE_WAITS.day, plans.windows, waitCapMs(plans.windows)),
    );
  });

  // A limiter shown not to be fixed windows (here told a token bucket, as the minute probe tells one) has no
  // day's end to find nor a fresh day to count: its paced run takes both spans (DAY_GIVE_UP.paced), and a
  // wait under way when it runs out.
  it('a token bucket whose day is not enforced: the paced run gives up after 3 days + 4 minutes, within the declaration', async () => {
    const bucketPlans = parsePlansFile({ windows: plans.windows, plans: { free: { perMinute: 6, perDay: 25 } } });
    const t = inProcessTarget({
      plans: bucketPlans,
      keys: { [key]: 'free' },
      variants: { limiterModel: 'token-bucket' },
      faults: { noDayQuota: true },
      skewMs: 0,
      startMs: Date.UTC(2030, 0, 1) + 500,
    });
    const ctx = contextOn(t, plans.windows);
    const told = { free: { model: 'token-bucket', why: 'told as the minute probe tells it' } } as const;
    const start = t.clock.now();
    const r = await runProbes(ctx, [{ key, plan: resolvePlan(bucketPlans, 'free') }], ['day'], [key], told);
    const pacedMs = t.clock.now() - start;
    expect(r.checks.find((c) => c.id === 'quota.day.exact[free]')?.failures[0]?.message).toMatch(
      /without a day-quota 429 .*a token-bucket limiter at most/,
    );
    expect(pacedMs).toBeGreaterThan(3 * D + 4 * M);
    expect(pacedMs).toBeLessThanOrEqual(3 * D + 4 * M + M + DATE_SLACK_MS);
    expect(pacedMs).toBeLessThanOrEqual(waitsMs(PROBE_WAITS.day, plans.windows, waitCapMs(plans.windows)));
  });
});
