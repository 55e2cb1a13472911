// quota.burst.remaining (§8.2: under concurrency the Remaining values of one window are distinct and
// contiguous) had no faulty server proving it fails (STYLE: every check proven by a fault), while 77ec2f7
// changed its guard. The reference server in virtual time: Remaining that does not count down, and a
// check-then-count limiter whose concurrent answers repeat a value, fail it; the correct server passes it.
// And no pass with nothing judged: with a Limit matching neither figure of the plan (limitHeaderOffset) no
// answer reports a quota, so neither the burst's Remaining set nor the count's countdown was read; both were
// reported PASS (quota.headers.limit fails that server, but a MUST check's PASS must mean it was judged).
import { describe, expect, it } from 'vitest';
import type { ReferenceOptions } from '../../../reference/app.ts';
import { parsePlansFile, resolvePlan } from '../../../spec/plans.ts';
import { inProcessTarget, contextOn } from '../../../testkit/load/in-process.ts';
import { runProbes } from '../run.ts';

const plans = parsePlansFile({
  windows: { minuteSeconds: 2, daySeconds: 16 },
  plans: { free: { perMinute: 4, perDay: 20 } },
});
const KEY = 'pc_free_aaaaaaaaaaaa';

/** The minute probe (it tells the model) and the burst, on the reference server in virtual time. */
async function outcome(options: ReferenceOptions) {
  const t = inProcessTarget({ plans, keys: { [KEY]: 'free' }, ...options });
  const ctx = contextOn(t, plans.windows);
  const r = await runProbes(ctx, [{ key: KEY, plan: resolvePlan(plans, 'free') }], ['minute', 'burst'], []);
  return r.checks.find((c) => c.id === 'quota.burst.remaining[free]');
}

describe('quota.burst.remaining', () => {
  it('passes the correct server', async () => {
    expect((await outcome({}))?.outcome).toBe('pass');
  });

  it.for([
    ['Remaining stuck at Limit', { remainingStuck: true }],
    ['check-then-count across an await (racy)', { racy: true }],
  ] as const)('fails a server whose concurrent answers repeat a Remaining value: %s', async ([, faults]) => {
    const c = await outcome({ faults });
    expect({ outcome: c?.outcome, message: c?.failures[0]?.message }).toMatchObject({
      outcome: 'fail',
      message: expect.stringContaining('not distinct and contiguous'),
    });
  });
});

describe('quota.burst.remaining with nothing to judge', () => {
  it('is not a pass when no admitted answer of the burst reports a quota (Limit matching neither figure)', async () => {
    const c = await outcome({ faults: { limitHeaderOffset: 1 } });
    expect(c?.outcome).not.toBe('pass');
  });
});

describe('quota.headers.remaining with nothing to judge', () => {
  it('is not a pass when no admitted answer of the count reports a quota (Limit matching neither figure)', async () => {
    const t = inProcessTarget({ plans, keys: { [KEY]: 'free' }, faults: { limitHeaderOffset: 1 } });
    const ctx = contextOn(t, plans.windows);
    const r = await runProbes(ctx, [{ key: KEY, plan: resolvePlan(plans, 'free') }], ['minute'], []);
    const c = r.checks.find((x) => x.id === 'quota.headers.remaining[free]');
    expect({ outcome: c?.outcome, kind: c?.skipKind }).toEqual({ outcome: 'skip', kind: 'unjudged' });
  });
});
