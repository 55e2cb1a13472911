import { describe, expect, it } from 'vitest';
import { gcraMeter } from './gcra.ts';
import { tokenBucketMeter } from './token-bucket.ts';

describe.for([
  ['gcra', gcraMeter],
  ['token bucket (limiter package)', tokenBucketMeter],
] as const)('%s meter', ([, meter]) => {
  it('admits a burst of the figure from idle, then one more only after one emission interval', () => {
    const m = meter(10, 1000);
    const t = Date.now();
    for (let i = 0; i < 10; i++) {
      expect(m.room(t)).toBeGreaterThanOrEqual(1);
      m.take(t);
    }
    expect(m.room(t)).toBeLessThan(1);
    expect(m.oneAtMs(t) - t).toBeGreaterThan(0);
    expect(m.oneAtMs(t) - t).toBeLessThanOrEqual(100 + 5);
    expect(m.fullAtMs(t) - t).toBeGreaterThan(900);
    expect(m.fullAtMs(t) - t).toBeLessThanOrEqual(1000 + 5);
  });
});

describe('gcra meter (virtual time)', () => {
  it('refills at the figure per window: half a window later, half the figure fits', () => {
    const m = gcraMeter(10, 1000);
    for (let i = 0; i < 10; i++) m.take(0);
    expect(Math.floor(m.room(500))).toBe(5);
    expect(m.oneAtMs(0)).toBe(100);
    expect(m.fullAtMs(0)).toBe(1000);
  });
});
