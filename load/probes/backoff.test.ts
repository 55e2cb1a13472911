import { describe, expect, it } from 'vitest';
import { BACKOFF, backoffDelayMs } from './backoff.ts';

describe('backoffDelayMs', () => {
  it('doubles from the base up to the cap', () => {
    expect([0, 1, 2, 3, 4].map((a) => backoffDelayMs(a, undefined, 5000))).toEqual([1000, 2000, 4000, 5000, 5000]);
  });
  it('never waits less than Retry-After asks', () => {
    expect(backoffDelayMs(0, 7, 5000)).toBe(7000);
  });
  it('gives up after a bounded number of tries', () => {
    expect(BACKOFF.maxAttempts).toBeLessThanOrEqual(5);
  });
});
