import { describe, expect, it } from 'vitest';
import { INT64, isInt64, isInt64Double } from './int64.ts';

describe('int64', () => {
  it('is exact on bigints', () => {
    expect([INT64.max, INT64.min, 0n].map(isInt64)).toEqual([true, true, true]);
    expect([INT64.max + 1n, INT64.min - 1n].map(isInt64)).toEqual([false, false]);
    expect(INT64.max).toBe(9223372036854775807n);
  });
  it('on doubles, as close as a double can tell', () => {
    expect([2 ** 63, -(2 ** 63), 2 ** 53 + 2, 0].map(isInt64Double)).toEqual([true, true, true, true]);
    expect([2 ** 64, -(2 ** 64), 1.5, Number.NaN].map(isInt64Double)).toEqual([false, false, false, false]);
  });
});
