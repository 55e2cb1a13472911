import { describe, expect, test } from 'vitest';
import { parsePlansFile } from '../spec/plans.ts';
import { createLimiter } from './limiter.ts';
import { bodyOf, fakeClock, inProcess, rate } from '../testkit/reference/in-process.ts';
import { resolveVariants } from './variants.ts';

const T0 = Date.UTC(2030, 0, 1, 0, 0, 0); // a minute and day boundary
const small = parsePlansFile({
  windows: { minuteSeconds: 2, daySeconds: 40 },
  plans: { tiny: { perMinute: 3, perDay: 5 } },
});

describe('fixed, epoch-aligned windows (§8)', () => {
  test('the 61st request in a minute gets 429 + Retry-After + Error; the next window admits again', async () => {
    const clock = fakeClock(T0 + 10_500);
    const call = inProcess({ now: clock.now });
    for (let i = 0; i < 60; i++) {
      const res = await call('GET', '/v1/pets');
      expect(res.status).toBe(200);
      expect(rate(res)).toEqual({ limit: 60, remaining: 59 - i, reset: T0 / 1000 + 60 });
    }
    const refused = await call('GET', '/v1/pets');
    expect(refused.status).toBe(429);
    expect(bodyOf(refused)).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(rate(refused)).toEqual({ limit: 60, remaining: 0, reset: T0 / 1000 + 60 });
    expect(refused.headers['retry-after']).toBe('50'); // 10.5 s in: 49.5 s left, rounded up
    clock.set(T0 + 60_000);
    const again = await call('GET', '/v1/pets');
    expect(again.status).toBe(200);
    expect(rate(again)).toEqual({ limit: 60, remaining: 59, reset: T0 / 1000 + 120 });
  });

  test('Retry-After is at least 1 even in the last instant of a window', async () => {
    const clock = fakeClock(T0 + 59_999);
    const call = inProcess({ now: clock.now, plans: parsePlansFile({ plans: { free: { perMinute: 1 } } }) });
    await call('GET', '/v1/pets');
    expect((await call('GET', '/v1/pets')).headers['retry-after']).toBe('1');
  });

  test('429s do not consume quota', async () => {
    const clock = fakeClock(T0);
    const call = inProcess({ now: clock.now, plans: small }, 'tiny');
    for (let i = 0; i < 3; i++) await call('GET', '/v1/pets');
    for (let i = 0; i < 5; i++) expect((await call('GET', '/v1/pets')).status).toBe(429);
    clock.advance(2000);
    expect((await call('GET', '/v1/pets')).status).toBe(200); // day count is 4 of 5, not 9
  });

  test('the day quota binds across minute windows; headers switch to the quota closest to exhaustion', async () => {
    const clock = fakeClock(T0);
    const call = inProcess({ now: clock.now, plans: small }, 'tiny');
    const first = await call('GET', '/v1/pets');
    // minute 3-1=2 left (resets at +2), day 5-1=4 left: minute is closer
    expect(rate(first)).toEqual({ limit: 3, remaining: 2, reset: T0 / 1000 + 2 });
    await call('GET', '/v1/pets');
    clock.advance(2000);
    const third = await call('GET', '/v1/pets'); // minute 2 left, day 2 left: tie → the sooner reset
    expect(rate(third)).toEqual({ limit: 3, remaining: 2, reset: T0 / 1000 + 4 });
    const fourth = await call('GET', '/v1/pets'); // minute 1, day 1: tie again
    expect(rate(fourth)).toEqual({ limit: 3, remaining: 1, reset: T0 / 1000 + 4 });
    const fifth = await call('GET', '/v1/pets'); // minute 0, day 0 → tie → minute
    expect(fifth.status).toBe(200);
    clock.advance(2000);
    const refused = await call('GET', '/v1/pets'); // day spent, minute fresh: the day binds
    expect(refused.status).toBe(429);
    expect(rate(refused)).toEqual({ limit: 5, remaining: 0, reset: T0 / 1000 + 40 });
    expect(refused.headers['retry-after']).toBe('36');
    clock.set(T0 + 40_000);
    expect((await call('GET', '/v1/pets')).status).toBe(200);
  });

  test('keys are counted separately', async () => {
    const clock = fakeClock(T0);
    const call = inProcess({ now: clock.now, plans: small, keys: { k: 'tiny', j: 'tiny' } });
    for (let i = 0; i < 3; i++) await call('GET', '/v1/pets');
    expect((await call('GET', '/v1/pets')).status).toBe(429);
    expect((await call('GET', '/v1/pets', { key: 'j' })).status).toBe(200);
  });

  test('500 concurrent requests on a fresh 60/min window: exactly 60 admitted', async () => {
    const call = inProcess({ now: fakeClock(T0).now });
    const results = await Promise.all(Array.from({ length: 500 }, () => call('GET', '/v1/pets')));
    expect(results.filter((r) => r.status === 200)).toHaveLength(60);
    expect(results.filter((r) => r.status === 429)).toHaveLength(440);
  });

  test('state is one record per bucket: old windows are overwritten, not kept', () => {
    const limiter = createLimiter(small.windows, {}, resolveVariants());
    const plan = { name: 'tiny', perMinute: 3, perDay: 5 };
    for (let w = 0; w < 1000; w++) limiter.take('k', plan, T0 + w * 2000);
    expect(limiter.size()).toBe(1);
  });
});

// express-rate-limit's and rate-limiter-flexible's memory stores: a key's window opens at its first request
// after the last one ended, not on a grid; a correct server petcert must pass (variant limiterModel).
describe("windows opened by a key's first request (variant 'first-request')", () => {
  const limiter = () => createLimiter(small.windows, {}, resolveVariants({ limiterModel: 'first-request' }));
  const plan = { name: 'tiny', perMinute: 3, perDay: 5 };

  test('the minute window starts at the first request and the next at the first request after it ended', () => {
    const l = limiter();
    const start = T0 + 700;
    for (let i = 0; i < 3; i++)
      expect(l.take('k', plan, start + i * 100)).toMatchObject({
        admitted: true,
        headers: { limit: 3, remaining: 2 - i },
      });
    const refused = l.take('k', plan, start + 1_999);
    expect(refused).toMatchObject({ admitted: false, retryAtMs: start + 2_000 });
    // Not at the grid's T0 + 2 s: at the instant of the next request after the window's end.
    const later = start + 2_000 + 450;
    expect(l.take('k', plan, later)).toMatchObject({ admitted: true, headers: { limit: 5, remaining: 1 } });
    expect(l.take('k', plan, later + 1)).toMatchObject({ admitted: true, headers: { limit: 5, remaining: 0 } });
    expect(l.take('k', plan, later + 2)).toMatchObject({ admitted: false, retryAtMs: start + 40_000 });
  });

  test('the day window too, and Reset is its end rounded up to the second', () => {
    const l = limiter();
    const start = T0 + 300;
    for (let i = 0; i < 5; i++) l.take('k', plan, start + i * 2_000);
    expect(l.take('k', plan, start + 39_999)).toMatchObject({
      admitted: false,
      headers: { limit: 5, remaining: 0, reset: Math.ceil((start + 40_000) / 1000) },
    });
    const next = start + 42_000 + 234; // after the minute window the refused request opened (start + 39 999) ended
    expect(l.take('k', plan, next)).toMatchObject({ admitted: true, headers: { remaining: 2 } });
    expect(l.take('k', plan, next + 10)).toMatchObject({
      admitted: true,
      headers: { limit: 3, remaining: 1, reset: Math.ceil((next + 2_000) / 1000) },
    });
  });

  test('a peek opens no window', () => {
    const l = limiter();
    expect(l.peek('k', plan, T0 + 100)).toMatchObject({ admitted: true });
    expect(l.take('k', plan, T0 + 1_500)).toMatchObject({
      admitted: true,
      headers: { reset: Math.ceil((T0 + 3_500) / 1000) },
    });
  });
});
