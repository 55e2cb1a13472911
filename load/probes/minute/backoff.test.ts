import { describe, expect, it } from 'vitest';
import { BACKOFF } from './backoff.ts';

// The delay arithmetic itself is core/backoff.ts (tested there).
describe('probe backoff', () => {
  it('starts from 1 s', () => {
    expect(BACKOFF.baseMs).toBe(1000);
  });
  it('gives up after a bounded number of tries', () => {
    expect(BACKOFF.maxAttempts).toBeLessThanOrEqual(5);
  });
});
