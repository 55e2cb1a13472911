// The waits each probe declares (waits.ts) against what the probe does: on a correct server (the spec's
// real windows, virtual time, a skewed server clock) each probe alone ends within its declaration, and
// the declaration adds up as written.
import { describe, expect, it } from 'vitest';
import { silentProgress } from '../../core/progress.ts';
import { parsePlansFile, resolvePlan } from '../../spec/plans.ts';
import { DATE_SLACK_MS } from '../../spec/ratelimit.ts';
import { inProcessTarget } from '../../testkit/load/in-process.ts';
import { waitCapMs } from './bounds.ts';
import { createContext } from './context.ts';
import { runProbes } from './run.ts';
import { PROBE_WAITS, waitsFormula, waitsMs, type WaitingProbe } from './waits.ts';

const table = parsePlansFile({});
const M = 60_000;
const D = 86_400_000;

describe('a declaration adds up as written', () => {
  it('capped waits, each ≤ its window + the Date slack and ≤ the cap, plus whole spans', () => {
    const waits = { waits: { minute: 2, day: 1 }, spans: { minute: 3, day: 1 }, why: '' };
    expect(waitsMs(waits, table.windows, Number.POSITIVE_INFINITY)).toBe(2 * (M + DATE_SLACK_MS) + (D + DATE_SLACK_MS) + 3 * M + D);
    expect(waitsMs(waits, table.windows, 5_000)).toBe(3 * 5_000 + 3 * M + D);
    expect(waitsFormula(waits)).toBe('2 × min(W, M + 1.5 s) + 1 × min(W, D + 1.5 s) + D + 3M');
  });
});

describe('each probe alone, on a correct server, ends within its declared waits', () => {
  it.for(['minute', 'burst', 'day'] as WaitingProbe[])('%s', async (probe) => {
    const keys = { pc_free_aaaaaaaaaaaa: 'free' };
    const target = inProcessTarget({ plans: table, keys });
    const ctx = createContext({ send: target.send, clock: target.clock, baseUrl: target.baseUrl, windows: table.windows, progress: silentProgress });
    const start = target.clock.now();
    const r = await runProbes(ctx, [{ key: 'pc_free_aaaaaaaaaaaa', plan: resolvePlan(table, 'free') }], [probe], Object.keys(keys));
    expect(r.checks.filter((c) => c.outcome === 'fail').map((c) => c.id)).toEqual([]);
    expect(target.clock.now() - start).toBeLessThanOrEqual(waitsMs(PROBE_WAITS[probe], table.windows, waitCapMs(table.windows)));
  });
});
