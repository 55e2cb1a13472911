import { describe, expect, test } from 'vitest';
import { int64FromDecimal, isInt64, jsonInteger } from './json-int.ts';

describe('jsonInteger reads the exact integer a JSON number denotes', () => {
  test.for([
    ['0', 0n],
    ['-0', 0n],
    ['1.0', 1n],
    ['1e2', 100n],
    ['1.50e1', 15n],
    ['-12', -12n],
    ['9223372036854775807', 2n ** 63n - 1n],
    ['9223372036854775808', 2n ** 63n],
    ['0.0e5', 0n],
  ] as const)('%s → %s', ([text, want]) => {
    expect(jsonInteger(text)).toBe(want);
  });

  test.for(['1.5', '1e-1', '0.1e1x', 'abc', '1e400'])('%s is not a usable integer', (text) => {
    expect(jsonInteger(text)).toBeUndefined();
  });

  test('int64 bounds are exact', () => {
    expect(isInt64(2n ** 63n - 1n)).toBe(true);
    expect(isInt64(2n ** 63n)).toBe(false);
    expect(isInt64(-(2n ** 63n))).toBe(true);
    expect(isInt64(-(2n ** 63n) - 1n)).toBe(false);
  });

  test('int64FromDecimal accepts plain decimal int64 only', () => {
    expect(int64FromDecimal('42')).toBe(42n);
    expect(int64FromDecimal('-9223372036854775808')).toBe(-(2n ** 63n));
    expect(int64FromDecimal('9223372036854775808')).toBeUndefined();
    expect(int64FromDecimal('1.0')).toBeUndefined();
    expect(int64FromDecimal('abc')).toBeUndefined();
    expect(int64FromDecimal('')).toBeUndefined();
  });
});
