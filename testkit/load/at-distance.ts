// The reference server in-process, answered 20–120 ms away each way (seeded), in virtual time: the probes'
// counts go out in waves and answers come back late, as from a distant or loaded server. Seeds replay.
import type { Send } from '../../core/exchange.ts';
import { silentProgress } from '../../core/progress.ts';
import { PROBE_NAMES } from '../../load/probes/checks.ts';
import { createContext } from '../../load/probes/context.ts';
import { runProbes } from '../../load/probes/run.ts';
import type { ReferenceOptions } from '../../reference/app.ts';
import { resolvePlan, type PlanTable } from '../../spec/plans.ts';
import { inProcessTarget, type InProcessTarget } from './in-process.ts';
import { seeded } from './shape-run.ts';

export interface AtDistance extends Pick<ReferenceOptions, 'faults' | 'variants'> {
  plans: PlanTable;
  /** key → plan name. */
  keys: Record<string, string>;
}

/** A start instant per seed (a prime step apart): windows fall differently against the probes' waits. */
export const seededStartMs = (seed: number): number => Date.UTC(2030, 0, 1) + seed * 7919;

/** Sends to `t` with [lo, hi) ms each way (the seed picks the delays): a distant server in virtual time. */
export function distantSend(t: InProcessTarget, seed: number, [lo, hi]: readonly [number, number] = [20, 120]): Send {
  const random = seeded(seed);
  const leg = (): number => lo + random() * (hi - lo);
  return async (request) => {
    await t.clock.sleep(leg());
    const exchange = await t.send(request);
    await t.clock.sleep(leg());
    return exchange;
  };
}

/** Every probe on every key against the reference server 20–120 ms away; the seed picks the delays and the start. */
export async function probesAtDistance(seed: number, o: AtDistance) {
  const { plans, keys, ...options } = o;
  const t = inProcessTarget({ plans, keys, ...options, startMs: seededStartMs(seed) });
  const send = distantSend(t, seed);
  const ctx = createContext({
    send,
    clock: t.clock,
    baseUrl: t.baseUrl,
    windows: plans.windows,
    progress: silentProgress,
  });
  const underTest = Object.entries(keys).map(([key, plan]) => ({ key, plan: resolvePlan(plans, plan) }));
  return runProbes(ctx, underTest, PROBE_NAMES, Object.keys(keys));
}
