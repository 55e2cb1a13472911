import { describe, expect, it } from 'vitest';
import type { Plan } from '../../spec/plans.ts';
import {
  CANARY_OVERSHOOT,
  canaryRate,
  chooseCanaries,
  minStepSeconds,
  noCanaryMessage,
  type CanaryStep,
} from './canary-plan.ts';

const plan = (name: string, perMinute: number): Plan => ({ name, perMinute, perDay: 100 * perMinute });
const [free, pro, business] = [plan('free', 60), plan('pro', 300), plan('business', 1000)];
const ALL = [free, pro, business];
// A business-only run: mix business=12, planned 200 req/s, 10 s steps, 60 s windows.
const businessStep: CanaryStep = { rate: 200, number: 4, seconds: 10, windowSeconds: 60 };

/** Requests the fullest window holds when `rate` is sent for `seconds`, the window boundary at `phase`. */
function fullestWindow(rate: number, seconds: number, window: number, phase: number): number {
  let best = 0;
  for (let start = -phase; start < seconds; start += window)
    best = Math.max(best, rate * (Math.min(seconds, start + window) - Math.max(0, start)));
  return best;
}

describe('canaryRate', () => {
  it('puts ≥ 1.5 × the quota into one window whatever its phase (steps shorter and longer than the window)', () => {
    for (const [seconds, window] of [
      [9, 60],
      [1.8, 4],
      [3.6, 4],
      [6, 4],
      [63, 60],
      [200, 60],
    ] as const) {
      const rate = canaryRate(60, window, seconds);
      for (let phase = 0; phase < window; phase += window / 97) {
        expect(fullestWindow(rate, seconds, window, phase)).toBeGreaterThanOrEqual(CANARY_OVERSHOOT * 60 - 1e-6);
      }
    }
  });
});

describe('chooseCanaries', () => {
  it('a business-only run: a spare free key judges (20 req/s for 9 s) where the business canary could not', () => {
    const choice = chooseCanaries(
      [
        { plan: business, spare: ['b-spare'] },
        { plan: free, spare: ['f1', 'f2'] },
      ],
      ALL,
      businessStep,
    );
    expect(choice.canaries).toEqual([{ plan: 'free', key: 'f2', perMinute: 60, rate: 20, seconds: 9 }]);
    expect(choice.notes.join()).toMatch(/no business canary: it would send 333.3 req\/s/);
    expect(choice.need).toBeUndefined();
  });

  it('prefers the smallest quota and adds others while the canaries stay within 20 % of the step', () => {
    const wide = chooseCanaries(
      [
        { plan: pro, spare: ['p'] },
        { plan: free, spare: ['f'] },
      ],
      ALL,
      { ...businessStep, rate: 1000, seconds: 100 },
    );
    expect(wide.canaries.map((c) => c.plan)).toEqual(['free', 'pro']); // 1.5 and 7.5 req/s of 200 allowed
  });

  it('the mix holding only the largest plan and no other key: a usage error naming what is needed', () => {
    const choice = chooseCanaries([{ plan: business, spare: ['b-spare'] }], ALL, businessStep);
    expect(choice.canaries).toEqual([]);
    // free fits a 10 s step; the business key needs 1.5 × 1000 in 60 s at ≤ 40 req/s: 37.5 s of sending.
    expect(choice.need).toBe(`one spare free key, or --step-seconds ≥ ${minStepSeconds(1000, businessStep)}`);
    expect(minStepSeconds(1000, businessStep)).toBe(84);
    expect(noCanaryMessage(businessStep, choice.need!)).toMatch(
      /^no canary can cross its quota during step 4 \(200 req\/s, 10 s\)/,
    );
  });

  it('says when no step length can do it and only a higher rate would', () => {
    const tiny: CanaryStep = { rate: 2, number: 1, seconds: 10, windowSeconds: 60 };
    expect(chooseCanaries([], ALL, tiny).need).toMatch(/a planned rate ≥ 7.5 req\/s/);
  });

  it('a minimum step length is one at which the canary fits', () => {
    for (const q of [60, 300, 1000]) {
      const s = minStepSeconds(q, businessStep);
      const fits = (seconds: number) =>
        chooseCanaries([{ plan: plan('x', q), spare: ['k'] }], ALL, { ...businessStep, seconds }).canaries.length === 1;
      expect(fits(s)).toBe(true);
      expect(fits(s - 1)).toBe(false);
    }
  });
});
