import { describe, expect, it } from 'vitest';
import { createServerClock, parseHeaderInt, parseHttpDate, parseRetryAfter, readRateLimit } from './ratelimit.ts';

describe('rate-limit header parsing', () => {
  it.for([
    ['60', 60],
    ['0', 0],
    ['-1', undefined],
    ['6e1', undefined],
    ['60.0', undefined],
    ['', undefined],
    ['abc', undefined],
  ] as const)('parseHeaderInt(%j) = %j', ([raw, expected]) => {
    expect(parseHeaderInt(raw)).toBe(expected);
  });

  it('reads all three headers or says which are wrong', () => {
    expect(readRateLimit({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '1700000060' })).toEqual({
      ok: true,
      value: { limit: 60, remaining: 59, reset: 1700000060 },
    });
    const bad = readRateLimit({ 'x-ratelimit-limit': '60', 'x-ratelimit-reset': 'soon' });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.problem).toMatch(/remaining is missing.*reset is not/);
  });
});

describe('HTTP dates and Retry-After', () => {
  const date = 'Sun, 06 Nov 1994 08:49:37 GMT';
  it('parses the three HTTP-date forms of RFC 9110 and rejects others', () => {
    const ms = Date.UTC(1994, 10, 6, 8, 49, 37);
    expect(parseHttpDate(date)).toBe(ms);
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT')).toBe(ms);
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994')).toBe(ms);
    expect(parseHttpDate('1994-11-06T08:49:37Z')).toBeUndefined();
    expect(parseHttpDate('tomorrow')).toBeUndefined();
  });

  it('reads delay-seconds and HTTP-dates against the server Date', () => {
    expect(parseRetryAfter({ 'retry-after': '7' })).toEqual({ ok: true, value: { seconds: 7, form: 'delay-seconds', raw: '7' } });
    const later = 'Sun, 06 Nov 1994 08:49:47 GMT';
    expect(parseRetryAfter({ 'retry-after': later, date })).toMatchObject({ ok: true, value: { seconds: 10, form: 'http-date' } });
    expect(parseRetryAfter({}).ok).toBe(false);
    expect(parseRetryAfter({ 'retry-after': '-3' }).ok).toBe(false);
    expect(parseRetryAfter({ 'retry-after': later }).ok).toBe(false);
  });
});

describe('server clock', () => {
  it('estimates server time from Date headers within their one-second resolution', () => {
    const clock = createServerClock();
    expect(clock.toServer(0)).toBeUndefined();
    // Server runs 5_000.3 s ahead; three samples at different sub-second phases.
    const offset = 5_000_300;
    for (const local of [10_000, 10_450, 10_900]) {
      const server = local + offset;
      clock.observe(local, local + 10, { date: new Date(Math.floor(server / 1000) * 1000).toUTCString() });
    }
    expect(Math.abs(clock.toServer(20_000)! - (20_000 + offset))).toBeLessThan(500);
    expect(clock.toLocalNotBefore(30_000 + offset)!).toBeGreaterThanOrEqual(30_000);
  });
});
