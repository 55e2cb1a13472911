import { describe, expect, test } from 'vitest';
import { authorizationLines, bearerToken } from './auth.ts';

describe('bearerToken', () => {
  test('the exact form and any case of the scheme name', () => {
    expect(bearerToken('Bearer k1')).toBe('k1');
    expect(bearerToken('bearer k1')).toBe('k1');
  });
  test.for([
    'Basic azE6',
    'k1',
    'Bearer ',
    'Bearer',
    'Bearer k1 k1',
    'Bearer "k1"',
    'Bearer\tk1',
    'Bearer k1, Bearer k1',
  ])('no token in %j', (header) => {
    expect(bearerToken(header)).toBeUndefined();
  });
});

describe('authorizationLines', () => {
  test('one line is passed on as sent; none is undefined', () => {
    expect(authorizationLines(['Host', 'x', 'Authorization', 'Bearer k1'])).toBe('Bearer k1');
    expect(authorizationLines(['Host', 'x'])).toBeUndefined();
  });
  test('repeated lines, in any case, are joined: no Bearer token, whichever line is valid', () => {
    const joined = authorizationLines(['authorization', 'Bearer nope', 'AUTHORIZATION', 'Bearer k1']);
    expect(joined).toBe('Bearer nope, Bearer k1');
    expect(bearerToken(joined)).toBeUndefined();
    expect(
      bearerToken(authorizationLines(['authorization', 'Bearer k1', 'authorization', 'Bearer k1'])),
    ).toBeUndefined();
  });
});
