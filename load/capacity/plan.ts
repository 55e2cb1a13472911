// From settings, plans and keys to the run: the planned rate of the mix, the steps (25 % up to
// max-factor × planned), which keys carry load and which are canaries. Load is spread so that no key
// ever exceeds KEY_SHARE of its plan's per-minute quota (nor of its day quota over the run): a 429
// below quota must mean the service throttled, never that petcert overdrove a key.
import { ConfigError } from '../../core/errors.ts';
import { concretePlans, resolvePlan, type Plan, type PlanTable } from '../../spec/plans.ts';
import { chooseCanaries, type Canary, type CanaryStep, type SpareKeys } from './canary-plan.ts';
import type { PlanKey } from './keys-file.ts';
import { plannedRateOf, type MixEntry } from './mix.ts';
import type { CapacitySettings } from './settings.ts';

/** The most of its quota any key carries (the rest is the margin for send jitter). */
export const KEY_SHARE = 0.9;
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

export type { Canary } from './canary-plan.ts';

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
  /** Why a plan has no canary (no spare key, too fast for its step). */
  notes: string[];
  /** Set when canaries were asked for and none can judge: what would let one (canary-plan.ts). */
  canaryNeed: string | null;
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

/**
 * Keys of one plan needed to carry `rate`, however many runners share the run: a runner picks a key
 * by the test-wide iteration number (load/k6/capacity.ts), so N runners together send each key what one
 * process would.
 */
export function keysNeeded(rate: number, maxPerKey: number): number {
  if (rate <= 0) return 0;
  return Math.ceil(rate / maxPerKey - 1e-9);
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

export function buildPlan(settings: CapacitySettings, table: PlanTable, keys: readonly PlanKey[]): CapacityPlan {
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
    const need = keysNeeded(top * planned, maxPerKey);
    if (have < need)
      shortfalls.push(`${need - have} more ${name} key${need - have === 1 ? '' : 's'} (${need} needed, ${have} given)`);
    scale = Math.min(scale, (have * maxPerKey) / (top * planned));
  }
  if (shortfalls.length > 0 && !settings.scaleToKeys) {
    throw new ConfigError(
      `the keys cannot carry ${top.toFixed(2)} × the planned rate with every key at ≤ ${KEY_SHARE * 100} % of its minute and day quotas: add` +
        ` ${shortfalls.join(', ')}; or test less with --max-factor, or the largest rate the keys carry with --scale-to-keys`,
      '--keys-file',
    );
  }
  if (scale <= 0)
    throw new ConfigError(
      `no keys for plan(s) ${mix
        .filter((e) => !byPlan.has(e.plan.name))
        .map((e) => e.plan.name)
        .join(', ')}`,
      '--keys-file',
    );
  const plannedRate = Object.values(perPlanPlanned).reduce((a, b) => a + b, 0);
  const steps = factors.map((f, index) => {
    const perPlan: Record<string, number> = {};
    for (const [name, planned] of Object.entries(perPlanPlanned)) perPlan[name] = scale * f * planned;
    return { index, factor: scale * f, offeredRate: scale * f * plannedRate, perPlan };
  });
  const firstAtPlan = steps.findIndex((s) => s.factor >= 1 - 1e-9);
  const canaryStep = firstAtPlan === -1 ? steps.length - 1 : firstAtPlan;
  const spare = spareKeys(mix, byPlan, table, steps[steps.length - 1]!, limits);
  const at = steps[canaryStep]!;
  const step = canaryStepOf({ steps, canaryStep, minuteSeconds }, settings);
  const choice = settings.canaries ? chooseCanaries(spare, concretePlans(table), step) : { canaries: [], notes: [] };
  const notes = choice.notes;
  const canaryRate = choice.canaries.reduce((sum, c) => sum + c.rate, 0);
  if (canaryRate > 0.05 * at.offeredRate) {
    const share = Math.round((100 * canaryRate) / at.offeredRate);
    notes.push(`the canaries add ${share} % to step ${canaryStep + 1}'s load while they send (until their first 429s)`);
  }
  const canaries = choice.canaries;
  const load = loadKeys(mix, byPlan, canaries);
  const canaryNeed = choice.need ?? null;
  return { plannedRate, perPlanPlanned, scale, steps, load, canaries, canaryStep, notes, minuteSeconds, canaryNeed };
}

/**
 * Spare keys: a mix plan's last key when the others carry its top step; every key of a plan outside
 * the mix. A canary may come from any of them (canary-plan.ts); spare keys no canary takes carry load.
 */
function spareKeys(
  mix: MixEntry[],
  byPlan: Map<string, string[]>,
  table: PlanTable,
  top: StepPlan,
  limits: Map<string, number>,
): SpareKeys[] {
  const spare: SpareKeys[] = [];
  for (const entry of mix) {
    const all = byPlan.get(entry.plan.name) ?? [];
    const needed = keysNeeded(top.perPlan[entry.plan.name]!, limits.get(entry.plan.name)!);
    spare.push({ plan: entry.plan, spare: needed < all.length ? all.slice(-1) : [] });
  }
  const inMix = new Set(mix.map((e) => e.plan.name));
  for (const [name, keys] of byPlan) if (!inMix.has(name)) spare.push({ plan: resolvePlan(table, name), spare: keys });
  return spare;
}

/** Every key of the mix's plans carries load, but the canaries. */
function loadKeys(
  mix: MixEntry[],
  byPlan: Map<string, string[]>,
  canaries: readonly Canary[],
): Record<string, string[]> {
  const taken = new Set(canaries.map((c) => c.key));
  return Object.fromEntries(
    mix.map((e) => [e.plan.name, (byPlan.get(e.plan.name) ?? []).filter((k) => !taken.has(k))]),
  );
}

/** The step the canaries run in, as canary-plan.ts sizes them. */
export function canaryStepOf(
  plan: Pick<CapacityPlan, 'steps' | 'canaryStep' | 'minuteSeconds'>,
  settings: CapacitySettings,
): CanaryStep {
  const rate = plan.steps[plan.canaryStep]!.offeredRate;
  return { rate, number: plan.canaryStep + 1, seconds: settings.stepSeconds, windowSeconds: plan.minuteSeconds };
}
