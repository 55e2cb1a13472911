// The probe core on a fake clock against the reference server in-process: every check passes on the
// correct server and its variants, and each injected limiter fault fails the check that targets it.
import { describe, expect, it } from 'vitest';
import { silentProgress } from '../../core/progress.ts';
import type { ReferenceOptions } from '../../reference/app.ts';
import { parsePlansFile, resolvePlan } from '../../spec/plans.ts';
import { inProcessTarget } from '../../testkit/load/in-process.ts';
import { PROBE_NAMES, type ProbeName } from './checks.ts';
import { createContext } from './context.ts';
import { runProbes } from './run.ts';

const plans = parsePlansFile({
  windows: { minuteSeconds: 2, daySeconds: 16 },
  plans: { free: { perMinute: 4, perDay: 20 }, pro: { perMinute: 6, perDay: 30 } },
});
const keys = { pc_free_aaaaaaaaaaaa: 'free', pc_pro_bbbbbbbbbbbbb: 'pro' };

export async function probe(options: ReferenceOptions = {}, only: readonly ProbeName[] = PROBE_NAMES, table = plans) {
  const target = inProcessTarget({ plans: table, keys, ...options });
  const ctx = createContext({
    send: target.send,
    clock: target.clock,
    baseUrl: target.baseUrl,
    windows: table.windows,
    progress: silentProgress,
  });
  const list = Object.entries(keys).map(([key, plan]) => ({ key, plan: resolvePlan(table, plan) }));
  const started = target.clock.now();
  const result = await runProbes(ctx, list, only, Object.keys(keys));
  return { ...result, requests: target.count(), elapsedMs: target.clock.now() - started };
}

const outcomes = (checks: Awaited<ReturnType<typeof probe>>['checks']) =>
  Object.fromEntries(checks.map((c) => [c.id, c.outcome]));
const failed = (checks: Awaited<ReturnType<typeof probe>>['checks']) =>
  checks.filter((c) => c.outcome === 'fail').map((c) => c.id);

describe('probe core on the correct reference server', () => {
  it('passes every check, skips none, and reports series', async () => {
    const r = await probe();
    expect(failed(r.checks)).toEqual([]);
    expect(r.checks.filter((c) => c.outcome === 'skip').map((c) => `${c.id}: ${c.skipReason}`)).toEqual([]);
    expect(r.checks.length).toBe(2 * 21 - 1); // isolation is reported once, on the spent key
    expect(Object.keys(r.series)).toEqual(expect.arrayContaining(['minute:free', 'burst:pro', 'day:free']));
    // Each series says what it is of, as a value; the name is for people and older readers.
    expect(Object.keys(r.subjects).sort()).toEqual(Object.keys(r.series).sort());
    expect(r.subjects['day:free']).toEqual({ probe: 'day', plan: 'free', key: 'free' });
    const observed = r.checks.find((c) => c.id === 'quota.rejected.consume[pro]')?.observed as {
      consumesDayQuota: boolean;
    };
    expect(observed.consumesDayQuota).toBe(false);
  });

  it.for([
    ['headerQuota minute', { headerQuota: 'minute' }],
    ['headerQuota day', { headerQuota: 'day' }],
    ['headerQuota closest', { headerQuota: 'closest' }],
    ['Retry-After as HTTP-date', { retryAfterForm: 'http-date' }],
    ['429s consume the quota', { rejectedConsume: true }],
  ] as const)('passes the variant %s', async ([, variants]) => {
    const r = await probe({ variants });
    // Headers of one quota on a 200, the other's 429 next (§8.2 "currently applicable"): a SHOULD finding,
    // always with the day's headers on a 200, with the minute's when the day runs out first.
    const quota = 'headerQuota' in variants ? variants.headerQuota : 'closest';
    const applicable = failed(r.checks).filter((id) => id.startsWith('quota.headers.applicable['));
    expect(failed(r.checks).filter((id) => !applicable.includes(id))).toEqual([]);
    if (quota === 'closest') expect(applicable).toEqual([]);
    if (quota === 'day')
      expect(applicable).toEqual(['quota.headers.applicable[free]', 'quota.headers.applicable[pro]']);
  });

  it('observes that 429s count against the day quota when they do', async () => {
    const r = await probe({ variants: { rejectedConsume: true } }, ['day']);
    expect(r.checks.find((c) => c.id === 'quota.rejected.consume[free]')?.observed).toMatchObject({
      consumesDayQuota: true,
    });
  });

  it('works with the real windows (60 s, 86,400 s) and the specification figures', async () => {
    const real = parsePlansFile({});
    const r = await probe({}, ['minute', 'burst', 'isolation'], real);
    expect(failed(r.checks)).toEqual([]);
    expect(outcomes(r.checks)['quota.minute.exact[pro]']).toBe('pass');
  });
});

describe('probe core detects each limiter fault', () => {
  it.for([
    ['admits limit+1', { overAdmit: 1 }, ['quota.minute.exact[free]', 'quota.burst.exact[free]']],
    ['minute quota not enforced', { noMinuteQuota: true }, ['quota.minute.exact[free]']],
    ['day quota not enforced', { noDayQuota: true }, ['quota.day.exact[free]']],
    ['wrong Limit figure', { limitHeaderOffset: 1 }, ['quota.headers.limit[free]']],
    ['Remaining stuck', { remainingStuck: true }, ['quota.headers.remaining[free]']],
    ['Remaining negative', { remainingNegative: true }, ['quota.headers.valid[free]']],
    ['Reset in ms', { resetMillis: true }, ['quota.headers.reset[free]']],
    ['Reset as a delta', { resetDelta: true }, ['quota.headers.reset[free]']],
    [
      'Retry-After missing',
      { retryAfter: 'missing' },
      ['quota.retry-after.present[free]', 'quota.day.retry-after[free]'],
    ],
    ['Retry-After zero', { retryAfter: 'zero' }, ['quota.retry-after.accurate[free]']],
    ['Retry-After far too long', { retryAfter: 'tooLong' }, ['quota.retry-after.accurate[free]']],
    ['no recovery after Retry-After', { noRecovery: true }, ['quota.recovery[free]']],
    [
      'one plan given another’s figures',
      { planAlias: { free: 'pro' } },
      ['quota.minute.exact[free]', 'quota.headers.limit[free]'],
    ],
    ['keys sharing one bucket', { sharedBucket: true }, ['quota.isolation[pro]']],
    ['over-admission under concurrency', { racy: true }, ['quota.burst.exact[free]']],
    ['429s consuming the next window', { rejectedConsumeNext: true }, ['quota.rejected.next-window[free]']],
  ] as const)('%s', async ([, faults, expected]) => {
    const r = await probe({ faults });
    expect(failed(r.checks)).toEqual(expect.arrayContaining([...expected]));
  });
});
