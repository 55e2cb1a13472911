// 1 s windows (npm start certifies on 1-second "minutes") answered 20–120 ms away, in virtual time. With a
// whole-second Date the minute probe's wait to the count's Reset may end up to a second late — a whole
// window — so the first request after the 429 lands two windows after the count's. Every Reset still lies
// on the count's window grid, which a fixed aligned window and a sliding log explain alike at 1 s: the
// model is left unknown (models/minute-count.ts onGridOnly), never called a sliding log, whose day probe
// would fail the correct server's quota.day.exact.
import { describe, expect, it } from 'vitest';
import type { ReferenceOptions } from '../../reference/app.ts';
import { parsePlansFile } from '../../spec/plans.ts';
import { probesAtDistance } from '../../testkit/load/at-distance.ts';

const plans = parsePlansFile({
  windows: { minuteSeconds: 1, daySeconds: 4 },
  plans: { free: { perMinute: 3, perDay: 11 }, pro: { perMinute: 4, perDay: 14 } },
});
const keys = { pc_free_onesec_aaaaa: 'free', pc_pro_onesec_bbbbbb: 'pro' };

/** The same windows with a smaller day, which the minute pace (16 per 4 s) overruns by more than a minute's figure. */
const smallDay = parsePlansFile({
  windows: plans.windows,
  plans: { free: { perMinute: 3, perDay: 8 }, pro: { perMinute: 4, perDay: 10 } },
});

const atDistance = (seed: number, options: Pick<ReferenceOptions, 'faults' | 'variants'>, table = plans) =>
  probesAtDistance(seed, { plans: table, keys, ...options });

const outcome = (r: Awaited<ReturnType<typeof atDistance>>, id: string) => {
  const c = r.checks.find((x) => x.id === id);
  return `${id}: ${c?.outcome} ${c?.failures[0]?.message ?? c?.skipReason ?? ''}`.trim();
};

// Seeds that failed quota.day.exact[pro] before (25 of 300 at 20–120 ms; 0 after).
const SEEDS = [10, 12, 24, 26, 60];

describe('fixed aligned 1 s windows answered 20–120 ms away', () => {
  it.for(SEEDS)('seed %i: the correct server fails nothing and leaves no MUST unjudged', async (seed) => {
    const r = await atDistance(seed, { variants: { rejectedConsume: true } });
    const model = r.checks.find((c) => c.id === 'quota.model[pro]')?.observed as { model: string; fix?: string };
    expect(model.model).not.toBe('sliding-log');
    const bad = r.checks.filter(
      (c) => c.outcome === 'fail' || (c.level === 'MUST' && c.outcome === 'skip' && c.skipKind !== 'not-applicable'),
    );
    expect(bad.map((c) => c.id)).toEqual([]);
    expect(outcome(r, 'quota.day.exact[pro]')).toBe('quota.day.exact[pro]: pass');
  });

  // Never a pass. With a day of 14 the pace (16 per 4 s) is too close to it for day.ts to tell an
  // unenforced day (unjudged, with its fix): so it was whenever the model was read fixed (67 of 100 seeds);
  // the other 33 failed only through the same sliding-log misreading that failed the correct server.
  it.for(SEEDS)('seed %i: a server that never enforces the day never passes quota.day.exact', async (seed) => {
    const r = await atDistance(seed, { variants: { rejectedConsume: true }, faults: { noDayQuota: true } });
    expect(outcome(r, 'quota.day.exact[pro]')).toMatch(
      /^quota\.day\.exact\[pro\]: (fail|skip .*cannot be reached within one day window)/,
    );
  });

  it.for(SEEDS)('seed %i: a server that never enforces a day the pace overruns fails quota.day.exact', async (seed) => {
    const r = await atDistance(seed, { variants: { rejectedConsume: true }, faults: { noDayQuota: true } }, smallDay);
    expect(outcome(r, 'quota.day.exact[pro]')).toMatch(/^quota\.day\.exact\[pro\]: fail .*without a day-quota 429/);
  });
});
