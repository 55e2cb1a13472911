import { describe, expect, test } from 'vitest';
import { parsePlansFile } from '../spec/plans.ts';
import { createLimiter } from './limiter.ts';
import { bodyOf, fakeClock, inProcess, rate } from '../testkit/reference/in-process.ts';
import { resolveVariants } from './variants.ts';

const T0 = Date.UTC(2030, 0, 1, 0, 0, 0); // a minute and day boundary
const small = parsePlansFile({ windows: { minuteSeconds: 2, daySeconds: 40 }, plans: { tiny: { perMinute: 3, perDay: 5 } } });

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
