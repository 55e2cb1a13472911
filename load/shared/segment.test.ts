import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors.ts';
import { keysForSegment, parseSegment, unsharedSequence } from './segment.ts';

describe('keysForSegment', () => {
  it.for([1, 2, 3, 4, 7])('gives every key to exactly one of %i runners', (n) => {
    const keys = Array.from({ length: 10 }, (_, i) => `k${i}`);
    const owned = Array.from({ length: n }, (_, i) => keysForSegment(keys, `${i}/${n}:${i + 1}/${n}`));
    expect(owned.flat().sort()).toEqual([...keys].sort());
    expect(new Set(owned.flat()).size).toBe(keys.length);
  });
  it('reads fractions, decimals and percentages, and the whole test by default', () => {
    expect(parseSegment('0:1/2')).toEqual({ from: 0, to: 0.5 });
    expect(parseSegment('50%:100%')).toEqual({ from: 0.5, to: 1 });
    expect(parseSegment(undefined)).toEqual({ from: 0, to: 1 });
    expect(keysForSegment(['a', 'b'], '')).toEqual(['a', 'b']);
  });
  it('takes null, what k6 gives for exec.test.options.executionSegment in a plain k6 run, as the whole test', () => {
    expect(parseSegment(null)).toEqual({ from: 0, to: 1 });
    expect(keysForSegment(['a', 'b'], null)).toEqual(['a', 'b']);
  });
  it('rejects nonsense with a ConfigError', () => {
    expect(() => parseSegment('2/3:1/3')).toThrow(ConfigError);
    expect(() => parseSegment('x:1')).toThrow(ConfigError);
    expect(() => parseSegment('0:1.5')).toThrow(ConfigError);
    expect(() => parseSegment(0.5)).toThrow(ConfigError);
  });
  it('refuses part of the test without a sequence (k6 would number its iterations alone), never the whole', () => {
    expect(unsharedSequence('1/3:2/3', null)).toMatch(
      /^--execution-segment 1\/3:2\/3 without --execution-segment-sequence: .*0,1\/3,2\/3,1/,
    );
    expect(unsharedSequence('0:1/2', '')).toContain('without --execution-segment-sequence');
    expect(unsharedSequence('1/3:2/3', '0,1/3,2/3,1')).toBeUndefined();
    expect(unsharedSequence(null, null)).toBeUndefined();
    expect(unsharedSequence('0:1', null)).toBeUndefined();
  });
  it('says why a segment is none', () => {
    expect(parseSegment('1/3:2/3')).toEqual({ from: 1 / 3, to: 2 / 3 });
    expect(() => parseSegment('x:1')).toThrow('not a segment point: "x"');
    expect(() => parseSegment('0:1.5')).toThrow('not a segment point: "1.5"');
    expect(() => parseSegment('1/2:1/4')).toThrow('empty segment "1/2:1/4"');
    expect(() => parseSegment(0.5)).toThrow('not a segment: 0.5');
  });
});
