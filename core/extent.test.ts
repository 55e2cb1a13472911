import { describe, expect, it } from 'vitest';
import { fewest, most } from './extent.ts';

describe('most / fewest', () => {
  it('read lists far past what Math.max(...xs) can spread in Node 20 (~125,000)', () => {
    const xs = Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 300_001);
    expect(most(xs)).toBe(xs.reduce((a, b) => (b > a ? b : a)));
    expect(fewest(xs)).toBe(xs.reduce((a, b) => (b < a ? b : a)));
  });

  it('agree with Math.max / Math.min on small lists, including none', () => {
    for (const xs of [[], [3], [2, -1, 5], [0, 0]]) {
      expect(most(xs)).toBe(Math.max(...xs));
      expect(fewest(xs)).toBe(Math.min(...xs));
    }
  });
});
