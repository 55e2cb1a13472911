import { describe, expect, it } from 'vitest';
import {
  createServerClock,
  isWholeSeconds,
  namesDateSecond,
  parseHeaderInt,
  parseHttpDate,
  parseRetryAfter,
  parseZonedDate,
  parseUnixTime,
  readRateLimit,
  retryAfterFormProblem,
} from './ratelimit.ts';

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
    expect(
      readRateLimit({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '1700000060' }),
    ).toEqual({
      ok: true,
      value: { limit: 60, remaining: 59, reset: 1700000060 },
    });
    const bad = readRateLimit({ 'x-ratelimit-limit': '60', 'x-ratelimit-reset': 'soon' });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.problem).toMatch(/remaining is missing.*reset is not/);
  });

  // §8.2 says "Unix timestamp", not integer: slowapi sends microseconds. Parsed, and only its form is a SHOULD.
  it.for([
    ['1795501051.808396', 1795501051.808396, false],
    ['1795501051', 1795501051, true],
    ['1795501051.', undefined, false],
    ['1.7e9', undefined, false],
    ['-1795501051', undefined, false],
  ] as const)('parseUnixTime(%j) = %j (whole seconds: %j)', ([raw, expected, whole]) => {
    expect(parseUnixTime(raw)).toBe(expected);
    expect(isWholeSeconds(raw)).toBe(whole);
  });

  it('reads a fractional Reset as a timestamp; Limit and Remaining stay integers', () => {
    const h = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '1795501051.808396' };
    expect(readRateLimit(h)).toEqual({ ok: true, value: { limit: 60, remaining: 59, reset: 1795501051.808396 } });
    expect(readRateLimit({ ...h, 'x-ratelimit-remaining': '59.5' }).ok).toBe(false);
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
    expect(parseRetryAfter({ 'retry-after': '7' })).toEqual({
      ok: true,
      value: { seconds: 7, form: 'delay-seconds', raw: '7' },
    });
    const later = 'Sun, 06 Nov 1994 08:49:47 GMT';
    expect(parseRetryAfter({ 'retry-after': later, date })).toMatchObject({
      ok: true,
      value: { seconds: 10, form: 'http-date' },
    });
    // rate-limiter-flexible's README form: readable as seconds, flagged as outside RFC 9110's syntax.
    expect(parseRetryAfter({ 'retry-after': '1.916' })).toEqual({
      ok: true,
      value: { seconds: 1.916, form: 'decimal-seconds', raw: '1.916' },
    });
    expect(parseRetryAfter({}).ok).toBe(false);
    expect(parseRetryAfter({ 'retry-after': '-3' }).ok).toBe(false);
    expect(parseRetryAfter({ 'retry-after': 'Sun, 06 Nov 1994 08:49:47 EST', date }).ok).toBe(false);
    expect(parseRetryAfter({ 'retry-after': later }).ok).toBe(false);
  });
});

describe('a date with another zone than GMT', () => {
  const date = 'Sun, 06 Nov 1994 08:49:37 GMT';
  it.each([
    ['UTC (Go time.RFC1123, sethvargo/go-limiter)', 'Sun, 06 Nov 1994 08:49:47 UTC', 10],
    ['UT', 'Sun, 06 Nov 1994 08:49:47 UT', 10],
    ['+0000 (Go time.RFC1123Z)', 'Sun, 06 Nov 1994 08:49:47 +0000', 10],
    ['a numeric offset east of Greenwich', 'Sun, 06 Nov 1994 09:49:47 +0100', 10],
    ['a numeric offset west of Greenwich', 'Sun, 06 Nov 1994 03:19:47 -0530', 10],
  ])('%s: read against Date as the wait it names, its form a finding', (_, raw, seconds) => {
    const r = parseRetryAfter({ 'retry-after': raw, date });
    expect(r).toEqual({ ok: true, value: { seconds, form: 'zoned-date', raw, aheadMs: seconds * 1000 } });
    expect(r.ok && retryAfterFormProblem(r.value)).toBe(
      `Retry-After ${JSON.stringify(raw)} is a date whose zone is not GMT, not an HTTP-date (RFC 9110: IMF-fixdate ends in GMT); read as 10 s`,
    );
  });

  it('is not an HTTP-date, and an HTTP-date is not one', () => {
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:47 UTC')).toBeUndefined();
    expect(parseZonedDate('Sun, 06 Nov 1994 08:49:47 GMT')).toBeUndefined();
    expect(parseZonedDate('Sun, 06 Nov 1994 08:49:47 +01')).toBeUndefined();
  });

  it('names its second: a date equal to Date asks a wait within it, one well before Date none', () => {
    const read = (raw: string) => {
      const r = parseRetryAfter({ 'retry-after': raw, date });
      return r.ok && namesDateSecond(r.value);
    };
    expect(read('Sun, 06 Nov 1994 08:49:37 UTC')).toBe(true);
    expect(read('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(true);
    // A proxy's Date may run ahead of the limiter's clock by the Date slack.
    expect(read('Sun, 06 Nov 1994 08:49:36 GMT')).toBe(true);
    expect(read('Sun, 06 Nov 1994 08:49:35 GMT')).toBe(false);
    expect(read('0')).toBe(false);
  });

  it('leaves RFC 9110 forms without a finding', () => {
    for (const raw of ['7', 'Sun, 06 Nov 1994 08:49:47 GMT']) {
      const r = parseRetryAfter({ 'retry-after': raw, date });
      expect(r.ok && retryAfterFormProblem(r.value)).toBeUndefined();
    }
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

  // uvicorn refreshes its formatted Date once a second: an answer's Date may be up to a second stale. A
  // stale Date read as fresh makes the clock "jump" back and Reset look a window too far ("1795501277 is
  // not within the 3 s minute window from the server's Date (1795501272)").
  it('a Date cached for up to a second never throws the estimate off by more than the slack', () => {
    const clock = createServerClock();
    const offset = 40_000_321;
    let worst = 0;
    for (let i = 0; i < 400; i++) {
      const local = 10_000 + i * 37;
      const lag = (i * 613) % 1000;
      clock.observe(local, local + 5, {
        date: new Date(Math.floor((local + offset - lag) / 1000) * 1000).toUTCString(),
      });
      worst = Math.max(worst, Math.abs(clock.toServer(local + 5)! - (local + 5 + offset)));
      expect(clock.toLocalNotBefore(local + offset)).toBeGreaterThanOrEqual(local);
    }
    expect(worst).toBeLessThanOrEqual(550);
  });

  // uvicorn re-formats its Date on a timer: under CPU starvation every two or three seconds, so a stretch of
  // answers carries a Date seconds old (one Reset 4.85 s after the Date on a 2 s window, load average 5–7).
  // Such a Date read as at most a second stale restarted the estimate from it (a "clock jump"): the clock
  // read seconds slow and a correct Reset out of its window ('quota.headers.reset', 3 runs in 10).
  it.for([1900, 3000])(
    'a Date up to %i ms stale never drags the estimate off once a fresh one was seen',
    (periodMs) => {
      const clock = createServerClock();
      const offset = 7_000_613;
      let worst = 0;
      for (let i = 0; i < 600; i++) {
        const local = 10_000 + i * 23;
        const server = local + offset;
        const lag = (server + 400) % periodMs; // re-formatted every periodMs, at some phase
        clock.observe(local - 3, local + 3, { date: new Date(Math.floor((server - lag) / 1000) * 1000).toUTCString() });
        expect(clock.toLocalNotBefore(server)).toBeGreaterThanOrEqual(local);
        if (i * 23 > periodMs + 1000) worst = Math.max(worst, Math.abs(clock.toServer(local)! - server));
      }
      expect(worst).toBeLessThanOrEqual(700); // the resolution's half, and the round trip
    },
  );
});
