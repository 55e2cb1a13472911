// Each fault does what it says (and only when asked): petcert's checks are proven against these.
import { describe, expect, test } from 'vitest';
import { parsePlansFile } from '../spec/plans.ts';
import type { ReferenceFaults } from './faults.ts';
import { fakeClock, inProcess, rate, type Caller } from '../testkit/reference/in-process.ts';

const T0 = Date.UTC(2030, 0, 1, 0, 0, 0);
const plans = parsePlansFile({
  windows: { minuteSeconds: 2, daySeconds: 40 },
  plans: { tiny: { perMinute: 3, perDay: 5 } },
});

function setup(faults: ReferenceFaults, extra: Record<string, string> = {}) {
  const clock = fakeClock(T0 + 500);
  const call = inProcess({ now: clock.now, plans, faults, keys: { k: 'tiny', ...extra } });
  return { clock, call };
}

async function statuses(call: Caller, n: number, key = 'k'): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await call('GET', '/v1/pets', { key })).status);
  return out;
}

describe('limiter faults', () => {
  test('none by default: 3 admitted, then 429', async () => {
    expect(await statuses(setup({}).call, 4)).toEqual([200, 200, 200, 429]);
  });

  test('overAdmit admits extra requests while Limit claims the plan figure', async () => {
    const { call } = setup({ overAdmit: 1 });
    const responses = [];
    for (let i = 0; i < 5; i++) responses.push(await call('GET', '/v1/pets'));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 429]);
    expect(rate(responses[3]!)).toMatchObject({ limit: 3, remaining: 0 });
  });

  test('noMinuteQuota: only the day quota binds', async () => {
    expect(await statuses(setup({ noMinuteQuota: true }).call, 6)).toEqual([200, 200, 200, 200, 200, 429]);
  });

  test('noDayQuota: the day never binds', async () => {
    const { call, clock } = setup({ noDayQuota: true });
    const seen: number[] = [];
    for (let w = 0; w < 4; w++, clock.advance(2000)) seen.push(...(await statuses(call, 3)));
    expect(seen.every((s) => s === 200)).toBe(true);
  });

  test('limitHeaderOffset, remainingStuck, resetMillis, resetDelta', async () => {
    expect(rate(await setup({ limitHeaderOffset: 5 }).call('GET', '/v1/pets')).limit).toBe(8);
    const stuck = setup({ remainingStuck: true }).call;
    await stuck('GET', '/v1/pets');
    expect(rate(await stuck('GET', '/v1/pets')).remaining).toBe(3);
    expect(rate(await setup({ resetMillis: true }).call('GET', '/v1/pets')).reset).toBe(T0 + 2000);
    expect(rate(await setup({ resetDelta: true }).call('GET', '/v1/pets')).reset).toBe(2);
  });

  test('remainingNegative: rejected requests report Remaining below 0', async () => {
    const { call } = setup({ remainingNegative: true });
    await statuses(call, 4);
    expect(rate(await call('GET', '/v1/pets')).remaining).toBe(-2);
  });

  test.for([
    ['missing', undefined],
    ['zero', '0'],
    ['tooLong', String(2 + 86_400)],
  ] as const)('retryAfter %s', async ([fault, want]) => {
    const { call } = setup({ retryAfter: fault });
    await statuses(call, 3);
    expect((await call('GET', '/v1/pets')).headers['retry-after']).toBe(want);
  });

  test('noRecovery: still refused for a whole window after the reset, then admitted', async () => {
    const { call, clock } = setup({ noRecovery: true });
    expect(await statuses(call, 4)).toEqual([200, 200, 200, 429]);
    clock.advance(2000);
    expect(await statuses(call, 2)).toEqual([429, 429]);
    clock.advance(2000);
    expect(await statuses(call, 1)).toEqual([200]);
  });

  test('planAlias: plan tiny limited and reported with free figures', async () => {
    const { call } = setup({ planAlias: { tiny: 'free' } });
    expect(await statuses(call, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(rate(await call('GET', '/v1/pets')).limit).toBe(60);
  });

  test("sharedBucket: one key spends the other's quota", async () => {
    const { call } = setup({ sharedBucket: true }, { j: 'tiny' });
    await statuses(call, 3);
    expect(await statuses(call, 1, 'j')).toEqual([429]);
  });

  test('racy: concurrent requests over-admit', async () => {
    const { call } = setup({ racy: true });
    const results = await Promise.all(Array.from({ length: 20 }, () => call('GET', '/v1/pets')));
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThan(3);
  });

  test('rejectedConsumeNext: each 429 is charged to the next minute window', async () => {
    const { call, clock } = setup({ rejectedConsumeNext: true, noDayQuota: true });
    expect(await statuses(call, 5)).toEqual([200, 200, 200, 429, 429]);
    clock.advance(2000);
    expect(await statuses(call, 2)).toEqual([200, 429]);
  });
});
