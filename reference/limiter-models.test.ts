// Each limiter model does what reference/limiter-models.ts says, on a fake clock (2 s minutes, 3/minute).
import { describe, expect, test } from 'vitest';
import { parsePlansFile } from '../spec/plans.ts';
import { fakeClock, inProcess, rate } from '../testkit/reference/in-process.ts';
import type { LimiterModel } from './variants.ts';

const T0 = Date.UTC(2030, 0, 1, 0, 0, 0);
const plans = parsePlansFile({
  windows: { minuteSeconds: 2, daySeconds: 40 },
  plans: { tiny: { perMinute: 3, perDay: 1000 } },
});

function server(limiterModel: LimiterModel, startMs = T0 + 500, originMs?: number) {
  const clock = fakeClock(startMs);
  const table = originMs === undefined ? plans : { ...plans, windows: { ...plans.windows, originMs } };
  const call = inProcess({ now: clock.now, plans: table, variants: { limiterModel } }, 'tiny');
  return { clock, get: () => call('GET', '/v1/pets') };
}

describe('sliding log', () => {
  test('at most 3 in any trailing 2 s; admitted Reset = now + 2 s; a refusal points at the oldest ageing out', async () => {
    const s = server('sliding-log');
    const a = await s.get();
    expect(rate(a)).toEqual({ limit: 3, remaining: 2, reset: T0 / 1000 + 3 }); // 2.5 s, rounded up
    s.clock.advance(700);
    await s.get();
    s.clock.advance(700);
    expect(rate(await s.get()).remaining).toBe(0);
    const refused = await s.get();
    expect(refused.status).toBe(429);
    expect(rate(refused).reset).toBe(Math.ceil((T0 + 2500) / 1000)); // the first request ages out at T0+2.5 s
    expect(refused.headers['retry-after']).toBe('1'); // 0.6 s, rounded up
    s.clock.set(T0 + 2500);
    expect((await s.get()).status).toBe(200); // one aged out: one fits
    expect((await s.get()).status).toBe(429);
  });
});

describe('sliding window counter', () => {
  test('the previous window weighs by its overlap; admitted Reset is the fixed window end', async () => {
    const s = server('sliding-counter', T0 + 1000);
    for (let i = 0; i < 3; i++) expect(rate(await s.get())).toMatchObject({ remaining: 2 - i, reset: T0 / 1000 + 2 });
    const refused = await s.get();
    expect(refused.status).toBe(429);
    // Next window: 3 × (1 - e/2 s) ≤ 2 once e ≥ 2/3 s.
    expect(rate(refused).reset).toBe(Math.ceil((T0 + 2000 + 667) / 1000));
    s.clock.set(T0 + 2100);
    expect((await s.get()).status).toBe(429); // 3 × 0.95 = 2.85: no room
    s.clock.set(T0 + 2700);
    const a = await s.get();
    expect(a.status).toBe(200);
    expect(rate(a)).toMatchObject({ remaining: 0, reset: T0 / 1000 + 4 }); // 3 × 0.65 + 1 = 2.95
  });
});

describe('token bucket', () => {
  test('a burst of 3, then one token per 2/3 s; Reset when full again', async () => {
    const s = server('token-bucket');
    for (let i = 0; i < 3; i++) expect(rate(await s.get()).remaining).toBe(2 - i);
    const refused = await s.get();
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1'); // 0.667 s for one token
    s.clock.advance(700);
    const a = await s.get();
    expect(a.status).toBe(200);
    expect(rate(a).remaining).toBe(0);
    expect(rate(a).reset).toBe(Math.ceil((T0 + 1200 + 2000 - 50) / 1000)); // 2.95 tokens short × 2/3 s
  });
});

describe('window origin (fixed windows)', () => {
  test('windows start at the origin, not the epoch', async () => {
    const origin = T0 + 1300;
    const s = server('fixed', origin + 100, origin);
    expect(rate(await s.get()).reset).toBe(Math.ceil((origin + 2000) / 1000));
    for (let i = 0; i < 2; i++) await s.get();
    const refused = await s.get();
    expect(refused.headers['retry-after']).toBe('2'); // 1.9 s to origin + 2 s
    s.clock.set(origin + 2000);
    expect(rate(await s.get())).toMatchObject({ remaining: 2 });
  });
});
