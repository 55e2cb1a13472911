import { describe, expect, test } from 'vitest';
import { canonicalInteger, idTextOf } from './json.ts';

describe('ids as the server wrote them', () => {
  test('integer forms JSON Schema accepts are read as the integer a client addresses', () => {
    expect(idTextOf('{"id":7.0,"name":"x"}')).toBe('7');
    expect(idTextOf('{"id":1e3}')).toBe('1000');
    expect(idTextOf('{"id":9223372036854775807}')).toBe('9223372036854775807');
    expect(idTextOf('{"id":-12.50e1}')).toBe('-125');
  });
  test('non-integers and non-numbers are no id', () => {
    for (const text of ['{"id":1.5}', '{"id":"7"}', '{"id":1500e-3}', '{"id":1e400}', '[]', 'not json'])
      expect(idTextOf(text)).toBeUndefined();
  });
  test('zero has one form', () => {
    expect(['0', '-0', '0.0', '0e5'].map(canonicalInteger)).toEqual(['0', '0', '0', '0']);
  });
});
