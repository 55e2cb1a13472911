// The waits each probe declares (waits.ts) against what the probe does: on a correct server (the spec's
// real windows, virtual time, a skewed server clock) each probe alone ends within its declaration, and
// the declaration adds up as written.
import { describe, expect, it } from 'vitest';
import { silentProgress } from '../../core/progress.ts';
import { parsePlansFile, resolvePlan } from '../../spec/plans.ts';
import { DATE_SLACK_MS } from '../../spec/ratelimit.ts';
import { inProcessTarget } from '../../testkit/load/in-process.ts';
import { runShape } from '../../testkit/load/shape-run.ts';
import { LATER_MS } from './models/minute-count.ts';
import { waitCapMs } from './bounds.ts';
import { createContext } from './context.ts';
import { runProbes } from './run.ts';
import { PROBE_WAITS, waitsFormula, waitsMs, type WaitingProbe } from './waits.ts';

const table = parsePlansFile({});
const M = 60_000;
const D = 86_400_000;

describe('a declaration adds up as written', () => {
  it('capped waits, each ≤ its window + the Date slack and ≤ the cap, plus whole spans', () => {
    const waits = { waits: { minute: 2, day: 1 }, spans: { minute: 3, day: 1 }, pausesMs: 700, why: '' };
    expect(waitsMs(waits, table.windows, Number.POSITIVE_INFINITY)).toBe(
      2 * (M + DATE_SLACK_MS) + (D + DATE_SLACK_MS) + 3 * M + D + 700,
    );
    expect(waitsMs(waits, table.windows, 5_000)).toBe(3 * 5_000 + 3 * M + D + 700);
    expect(waitsFormula(waits)).toBe('2 × min(W, M + 1.5 s) + 1 × min(W, D + 1.5 s) + D + 3M + 0.7 s');
  });
});

describe('each probe alone, on a correct server, ends within its declared waits', () => {
  it.for(['minute', 'burst', 'day'] as WaitingProbe[])('%s', async (probe) => {
    const keys = { pc_free_aaaaaaaaaaaa: 'free' };
    const target = inProcessTarget({ plans: table, keys });
    const ctx = createContext({
      send: target.send,
      clock: target.clock,
      baseUrl: target.baseUrl,
      windows: table.windows,
      progress: silentProgress,
    });
    const start = target.clock.now();
    const r = await runProbes(
      ctx,
      [{ key: 'pc_free_aaaaaaaaaaaa', plan: resolvePlan(table, 'free') }],
      [probe],
      Object.keys(keys),
    );
    expect(r.checks.filter((c) => c.outcome === 'fail').map((c) => c.id)).toEqual([]);
    expect(target.clock.now() - start).toBeLessThanOrEqual(
      waitsMs(PROBE_WAITS[probe], table.windows, waitCapMs(table.windows)),
    );
  });
});

// The minute probe's paths that depend on the limiter's headers (limiter-judges, 9d948ed..81e59f7): one more
// request LATER_MS after the recovery (a first-request window: models/minute-count.ts laterNeeded), and a count of the
// window after the 429 (two limiters, the day's headers on a 200: minute.ts countNextWindow). Each is
// taken here on a correct limiter, and the declaration counts what it adds: the pause by its constant, the
// count as a minute span; the probe ends within the declared bound.
describe('the minute probe, on the paths its headers choose, ends within its declaration', () => {
  const windows = { minuteSeconds: 3, daySeconds: 45 };
  const plans = { free: { perMinute: 6, perDay: 48 } };
  const declared = (): number => waitsMs(PROBE_WAITS.minute, windows, waitCapMs(windows));

  it('a window opened by a first request: one more request LATER_MS after the recovery, declared as a pause', async () => {
    const r = await runShape({ windows, plans, shape: { meter: 'first-use', headers: 'binding' }, only: ['minute'] });
    expect(r.checks.find((c) => c.id === 'quota.model[free]')?.observed).toMatchObject({
      model: 'fixed',
      start: 'first-request',
    });
    expect(r.failed).toEqual([]);
    expect(PROBE_WAITS.minute.pausesMs).toBe(LATER_MS);
    expect(r.elapsedMs).toBeLessThanOrEqual(declared());
  });

  it('two independent limiters: the window after the 429 counted, declared as one more minute span', async () => {
    const r = await runShape({
      windows,
      plans,
      shape: { meter: 'first-use', headers: { chain: ['minute', 'day'] } },
      only: ['minute'],
    });
    // Its recovery reports the day quota: next-window is judged only by counting that window.
    expect(r.checks.find((c) => c.id === 'quota.rejected.next-window[free]')?.outcome).toBe('pass');
    expect(r.failed.filter((f) => !f.startsWith('quota.headers.applicable['))).toEqual([]);
    expect(r.elapsedMs).toBeLessThanOrEqual(declared());
  });
});
