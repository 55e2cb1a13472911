import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors.ts';
import { parsePlansFile, resolvePlan } from '../../spec/plans.ts';
import type { PlanKey } from './keys-file.ts';
import { buildPlan, KEY_SHARE, keysNeeded, stepFactors } from './plan.ts';
import { readSettings } from './settings.ts';

// 10-second minutes: a free key allows 6 req/s, so it may carry 5.4.
const table = parsePlansFile({
  windows: { minuteSeconds: 10, daySeconds: 86_400 },
  plans: { free: { perMinute: 60, perDay: 1_000_000 }, pro: { perMinute: 300, perDay: 1_000_000 } },
});
const keys = (plan: string, n: number): PlanKey[] =>
  Array.from({ length: n }, (_, i) => ({ plan, key: `${plan}-${i}` }));
const settings = (env: Record<string, string>) => readSettings({ STEP_SECONDS: '2', ...env }, table);

/** Highest per-key rate over every step: must stay ≤ KEY_SHARE of the per-minute quota. */
function worstShare(plan: ReturnType<typeof buildPlan>): number {
  let worst = 0;
  for (const step of plan.steps) {
    for (const [name, rate] of Object.entries(step.perPlan)) {
      const perKey = rate / plan.load[name]!.length;
      worst = Math.max(worst, perKey / (resolvePlan(table, name).perMinute / table.windows.minuteSeconds));
    }
  }
  return worst;
}

describe('steps', () => {
  it('go from 25 % to max-factor × planned in equal increments', () => {
    expect(stepFactors(8, 2)).toEqual([0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2]);
    expect(stepFactors(3, 1)).toEqual([0.25, 0.625, 1]);
  });
});

describe('buildPlan', () => {
  it('plans the mix and spreads it so that no key exceeds 90 % of its quota', () => {
    const plan = buildPlan(settings({ MIX: 'free=10,pro=2', STEP_SECONDS: '20' }), table, [
      ...keys('free', 30),
      ...keys('pro', 10),
    ]);
    expect(plan.plannedRate).toBeCloseTo(10 * 6 + 2 * 30, 9);
    expect(plan.steps.at(-1)!.offeredRate).toBeCloseTo(2 * plan.plannedRate, 9);
    expect(worstShare(plan)).toBeLessThanOrEqual(KEY_SHARE + 1e-9);
    // 120 req/s at the planned step allow the canaries 24: free's 1.5 × 60 in 9 s takes 10, pro's 50.
    expect(plan.canaries.map((c) => [c.plan, c.rate])).toEqual([['free', 10]]);
    expect(plan.notes.join()).toMatch(/no pro canary: it would send 50 req\/s/);
    expect(plan.canaryStep).toBe(3); // the first step at the planned rate
  });

  it('says exactly how many more keys of which plan are needed', () => {
    // free: 2 × 10 × 6 req/s = 120 → 120 / 5.4 = 22.2 → 23 keys; pro: 2 × 2 × 30 = 120 / 27 → 5.
    const run = () => buildPlan(settings({ MIX: 'free=10,pro=2' }), table, [...keys('free', 20), ...keys('pro', 5)]);
    expect(run).toThrow(ConfigError);
    expect(run).toThrow('add 3 more free keys (23 needed, 20 given)');
    expect(run).not.toThrow(/pro key/);
  });

  it('with --scale-to-keys tests the largest rate the keys carry and says so', () => {
    const plan = buildPlan(settings({ MIX: 'free=10', SCALE_TO_KEYS: '1' }), table, keys('free', 11));
    expect(plan.scale).toBeCloseTo((11 * 5.4) / 120, 9);
    expect(worstShare(plan)).toBeLessThanOrEqual(KEY_SHARE + 1e-9);
    expect(plan.canaries).toEqual([]);
    expect(plan.canaryNeed).toMatch(/spare free key/);
  });

  it('without a mix, every key is a customer and the load is scaled to 90 % of them', () => {
    const plan = buildPlan(readSettings({}, table), table, keys('free', 4));
    expect(plan.plannedRate).toBeCloseTo(4 * 6, 9);
    expect(plan.steps.at(-1)!.offeredRate).toBeCloseTo(4 * 6 * KEY_SHARE, 9);
  });

  it('needs the keys that carry the rate at ≤ 90 % each, and no more (whatever the runners: they share keys by iteration number)', () => {
    expect(keysNeeded(100, 5.4)).toBe(19); // ceil(100 / 5.4)
    // 10 customers × 6 req/s × 2 = 120 req/s over keys of 5.4: 23 keys (three runners owning whole keys needed 24).
    const plan = buildPlan(settings({ MIX: 'free=10', CANARIES: '0' }), table, keys('free', 23));
    expect(worstShare(plan)).toBeLessThanOrEqual(KEY_SHARE + 1e-9);
    expect(() => buildPlan(settings({ MIX: 'free=10' }), table, keys('free', 22))).toThrow(
      'add 1 more free key (23 needed, 22 given)',
    );
  });

  it('keeps each key within 90 % of its day quota over the run as well', () => {
    const tight = parsePlansFile({
      windows: { minuteSeconds: 10, daySeconds: 86_400 },
      plans: { free: { perMinute: 60, perDay: 100 } },
    });
    // 8 steps × 60 s averaging 1.125 × 6 req/s = 3240 requests per customer: 0.9 × 100 = 90 per key → 36 keys.
    expect(() => buildPlan(readSettings({ MIX: 'free=1' }, tight), tight, keys('free', 30))).toThrow('(36 needed');
  });

  it('refuses a plan of the mix without keys', () => {
    expect(() => buildPlan(settings({ MIX: 'free=1,pro=1' }), table, keys('free', 5))).toThrow(/pro/);
  });
});
