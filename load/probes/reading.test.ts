import { describe, expect, it } from 'vitest';
import { isDeclarable } from '../../spec/plans.ts';
import { bucketWindowMost, overWindowText, readingFor, readingOf, refillCounts } from './reading.ts';

describe('the reading', () => {
  it('is the window reading unless a bucket is declared, and says which', () => {
    expect(readingOf(undefined)).toMatchObject({ model: 'window', declared: false });
    expect(readingOf('gcra')).toMatchObject({ model: 'gcra', declared: true });
    expect(readingFor(undefined, 60)).toBe("judged under the window reading (at most 60 in any window's length)");
    expect(readingFor('token-bucket', 60)).toBe('judged as a token bucket (capacity 60, 60 per window)');
  });

  it('declares only the refilling models', () => {
    expect(isDeclarable('token-bucket')).toBe(true);
    expect(isDeclarable('gcra')).toBe(true);
    expect(isDeclarable('fixed')).toBe(false);
  });

  it('counts a refill within a window only when declared', () => {
    expect(refillCounts(undefined, 'token-bucket', 1000, 999)).toBe(false);
    expect(refillCounts(undefined, 'token-bucket', 1000, 1000)).toBe(true);
    expect(refillCounts('token-bucket', 'token-bucket', 1000, 10)).toBe(true);
  });

  it('states what the evidence proves in the figures of a bucket', () => {
    expect(bucketWindowMost(60)).toBe(119);
    expect(overWindowText(103, 36_600, 60, 45, 'day')).toBe(
      "103 admitted within 36.6 s of one 45 s day: a bucket of 60 refilled at 60 per day admits up to 119 per day; judged under the window reading (at most 60 in any window's length)",
    );
  });
});
