import { describe, expect, it } from 'vitest';
import { backoffDelayMs } from './backoff.ts';

describe('backoffDelayMs', () => {
  const o = { baseMs: 1000, capMs: 5000 };
  it('doubles from the base up to the cap', () => {
    expect([0, 1, 2, 3, 4].map((a) => backoffDelayMs(a, undefined, o))).toEqual([1000, 2000, 4000, 5000, 5000]);
  });
  it('never waits less than Retry-After asks', () => {
    expect(backoffDelayMs(0, 7, o)).toBe(7000);
  });
});
