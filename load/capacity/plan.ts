// From settings, plans and keys to the run: the planned rate of the mix, the steps (25 % up to
// max-factor × planned), which keys carry load and which are canaries. Load is spread so that no key
// ever exceeds KEY_SHARE of its plan's per-minute quota (nor of its day quota over the run): a 429
// below quota must mean the service throttled, never that petcert overdrove a key.
import { ConfigError } from '../../core/errors.ts';
import { resolvePlan, type Plan, type PlanTable } from '../../spec/plans.ts';
import type { PlanKey } from './keys-file.ts';
import { plannedRateOf, type MixEntry } from './mix.ts';
import type { CapacitySettings } from './settings.ts';

/** The most of its quota any key carries (the rest is the margin for send jitter). */
export const KEY_SHARE = 0.9;
/**
 * A canary sends at CANARY_PACE × its plan's per-key rate (exhausting a window within a third of it),
 * from CANARY_START into its step. At realistic key counts that is noise; with few keys it is not,
 * and the plan says so.
 */
export const CANARY_PACE = 3;
export const CANARY_START = 0.1;
/** The first step, as a share of the planned rate. */
export const FIRST_FACTOR = 0.25;

export interface StepPlan {
  index: number;
  /** Share of the planned rate (after scaling to keys). */
  factor: number;
  /** Requests per second over all plans. */
  offeredRate: number;
  /** plan → requests per second */
  perPlan: Record<string, number>;
}

export interface Canary {
  plan: string;
  key: string;
  perMinute: number;
}

export interface CapacityPlan {
  plannedRate: number;
  perPlanPlanned: Record<string, number>;
  /** 1, or the share of max-factor × planned the keys can carry (--scale-to-keys). */
  scale: number;
  steps: StepPlan[];
  /** plan → keys that carry load */
  load: Record<string, string[]>;
  canaries: Canary[];
  /** Step during which the canaries are driven to exhaustion. */
  canaryStep: number;
  /** Why a plan has no canary (no spare key). */
  notes: string[];
  minuteSeconds: number;
}

export function stepFactors(steps: number, maxFactor: number): number[] {
  const top = Math.max(maxFactor, FIRST_FACTOR);
  return Array.from({ length: steps }, (_, k) => FIRST_FACTOR + (k * (top - FIRST_FACTOR)) / (steps - 1));
}

/** Highest request rate one key of `plan` may carry during a run of `runSeconds` at its peak rate. */
export function perKeyMax(plan: Plan, minuteSeconds: number, peakEquivalentSeconds: number): number {
  const byMinute = (KEY_SHARE * plan.perMinute) / minuteSeconds;
  const byDay = (KEY_SHARE * plan.perDay) / peakEquivalentSeconds;
  return Math.min(byMinute, byDay);
}

/** Keys of one plan needed to carry `rate` over `parallelism` runners (each runner owns whole keys). */
export function keysNeeded(rate: number, maxPerKey: number, parallelism: number): number {
  if (rate <= 0) return 0;
  return parallelism * Math.ceil(rate / parallelism / maxPerKey - 1e-9);
}

/** The per-key rate limit the worst runner's keys see: floor(n/N) keys carry rate/N. */
function carried(n: number, maxPerKey: number, parallelism: number): number {
  return Math.floor(n / parallelism) * parallelism * maxPerKey;
}

function groupKeys(keys: readonly PlanKey[], table: PlanTable): Map<string, string[]> {
  const byPlan = new Map<string, string[]>();
  for (const k of keys) {
    const plan = resolvePlan(table, k.plan).name;
    byPlan.set(plan, [...(byPlan.get(plan) ?? []), k.key]);
  }
  return byPlan;
}

function mixOf(settings: CapacitySettings, byPlan: Map<string, string[]>, table: PlanTable): MixEntry[] {
  if (settings.mix !== null) return settings.mix;
  return [...byPlan].map(([name, ks]) => ({ plan: resolvePlan(table, name), customers: ks.length }));
}

export function buildPlan(settings: CapacitySettings, table: PlanTable, keys: readonly PlanKey[], parallelism = 1): CapacityPlan {
  const minuteSeconds = table.windows.minuteSeconds;
  const byPlan = groupKeys(keys, table);
  const mix = mixOf(settings, byPlan, table);
  const factors = stepFactors(settings.steps, settings.maxFactor);
  const top = factors[factors.length - 1]!;
  const peakEquivalent = (factors.reduce((a, f) => a + f, 0) / top) * settings.stepSeconds;
  const perPlanPlanned: Record<string, number> = {};
  let scale = 1;
  const shortfalls: string[] = [];
  const limits = new Map<string, number>();
  for (const entry of mix) {
    const name = entry.plan.name;
    const planned = plannedRateOf(entry, settings.utilisation, minuteSeconds);
    perPlanPlanned[name] = planned;
    const maxPerKey = perKeyMax(entry.plan, minuteSeconds, peakEquivalent);
    limits.set(name, maxPerKey);
    const have = byPlan.get(name)?.length ?? 0;
    const need = keysNeeded(top * planned, maxPerKey, parallelism);
    if (have < need) shortfalls.push(`${need - have} more ${name} key${need - have === 1 ? '' : 's'} (${need} needed, ${have} given)`);
    scale = Math.min(scale, carried(have, maxPerKey, parallelism) / (top * planned));
  }
  if (shortfalls.length > 0 && !settings.scaleToKeys) {
    throw new ConfigError(`the keys cannot carry ${top.toFixed(2)} × the planned rate with every key at ≤ ${KEY_SHARE * 100} % of its minute and day quotas: add ${shortfalls.join(', ')}; or test less with --max-factor, or the largest rate the keys carry with --scale-to-keys`, '--keys-file');
  }
  if (scale <= 0) throw new ConfigError(`no keys for plan(s) ${mix.filter((e) => (byPlan.get(e.plan.name)?.length ?? 0) < parallelism).map((e) => e.plan.name).join(', ')} (each of ${parallelism} runner(s) needs one)`, '--keys-file');
  const plannedRate = Object.values(perPlanPlanned).reduce((a, b) => a + b, 0);
  const steps = factors.map((f, index) => {
    const perPlan: Record<string, number> = {};
    for (const [name, planned] of Object.entries(perPlanPlanned)) perPlan[name] = scale * f * planned;
    return { index, factor: scale * f, offeredRate: scale * f * plannedRate, perPlan };
  });
  const { load, canaries, notes } = chooseCanaries(settings, mix, byPlan, steps[steps.length - 1]!, limits, parallelism);
  const firstAtPlan = steps.findIndex((s) => s.factor >= 1 - 1e-9);
  const canaryStep = firstAtPlan === -1 ? steps.length - 1 : firstAtPlan;
  const canaryRate = canaries.reduce((sum, c) => sum + (CANARY_PACE * c.perMinute) / minuteSeconds, 0);
  if (canaryRate > 0.05 * steps[canaryStep]!.offeredRate) {
    notes.push(`the canaries add ${Math.round((100 * canaryRate) / steps[canaryStep]!.offeredRate)} % to step ${canaryStep + 1}'s load (few keys): --no-canaries if that step's latency matters more than quota under load`);
  }
  return { plannedRate, perPlanPlanned, scale, steps, load, canaries, canaryStep, notes, minuteSeconds };
}

/** One canary per plan, the plan's last key, when the others still carry the top step. */
function chooseCanaries(settings: CapacitySettings, mix: MixEntry[], byPlan: Map<string, string[]>, topStep: StepPlan, limits: Map<string, number>, parallelism: number) {
  const load: Record<string, string[]> = {};
  const canaries: Canary[] = [];
  const notes: string[] = [];
  for (const entry of mix) {
    const name = entry.plan.name;
    const all = byPlan.get(name) ?? [];
    const spare = all.length - keysNeeded(topStep.perPlan[name]!, limits.get(name)!, parallelism);
    if (settings.canaries && spare >= 1) {
      canaries.push({ plan: name, key: all[all.length - 1]!, perMinute: entry.plan.perMinute });
      load[name] = all.slice(0, -1);
    } else {
      load[name] = all;
      if (settings.canaries) notes.push(`no canary for ${name}: every ${name} key carries load (add one more ${name} key)`);
    }
  }
  return { load, canaries, notes };
}
