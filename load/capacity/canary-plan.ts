// Which spare keys become canaries, and how fast each sends. A canary must cross its quota inside the
// step it runs in, or it judges nothing (a Business canary paced at 3 × its share sends 447 requests in a
// 10 s step, never meets its quota of 1,000, and an over-admitting service passes). So
// each canary sends at least CANARY_OVERSHOOT × its per-minute quota within one of the server's
// windows, whatever that window's phase, while the step's planned load runs. Any plan with a spare key
// in the key file may give a canary (the smallest quota first: it needs the lowest rate); the canaries
// together add at most CANARY_SHARE of their step's rate, so they never become the load they judge.
import type { Plan } from '../../spec/plans.ts';

/** A canary starts this far into its step, once the step's load is flowing. */
export const CANARY_START = 0.1;
/** Requests a canary sends within one window, as a multiple of its quota (≥ 1.1 × to see 10 % over). */
export const CANARY_OVERSHOOT = 1.5;
/** The canaries' rates together, as a share of their step's offered rate, at most. */
export const CANARY_SHARE = 0.2;

export interface Canary {
  plan: string;
  key: string;
  perMinute: number;
  /** requests per second this canary sends */
  rate: number;
  /** how long it may send, from CANARY_START into its step */
  seconds: number;
}

export interface CanaryStep {
  /** the step's offered rate, req/s (all runners) */
  rate: number;
  /** 1-based, for messages */
  number: number;
  seconds: number;
  windowSeconds: number;
}

export interface CanaryChoice {
  canaries: Canary[];
  notes: string[];
  /** Set when no canary can judge: what would let one, e.g. "one spare free key, or --step-seconds ≥ 70". */
  need?: string;
}

/** Seconds a canary may send in a step of `stepSeconds`. */
export const canarySeconds = (stepSeconds: number): number => stepSeconds * (1 - CANARY_START);

/**
 * req/s that put ≥ CANARY_OVERSHOOT × quota into one window whatever its phase: sending for `seconds`
 * at rate r, some window holds at least r × min(window, seconds / 2) of the requests (a boundary
 * splits a span shorter than two windows into parts, the larger at least half of it; a longer span
 * holds a whole window).
 */
export function canaryRate(perMinute: number, windowSeconds: number, seconds: number): number {
  return (CANARY_OVERSHOOT * perMinute) / Math.min(windowSeconds, seconds / 2);
}

/** The shortest --step-seconds at which a canary of this quota fits its share (Infinity: none does). */
export function minStepSeconds(perMinute: number, step: CanaryStep): number {
  const span = (CANARY_OVERSHOOT * perMinute) / (CANARY_SHARE * step.rate);
  if (span > step.windowSeconds + 1e-9) return Infinity;
  return Math.ceil((2 * span) / (1 - CANARY_START) - 1e-9);
}

export interface SpareKeys {
  plan: Plan;
  /** keys of this plan no load needs (the last is the canary) */
  spare: readonly string[];
}

/**
 * Canaries for the plans with a spare key, smallest quota first, while their rates together stay
 * within CANARY_SHARE of the step's; `need` says what is missing when none fits.
 */
export function chooseCanaries(
  candidates: readonly SpareKeys[],
  allPlans: readonly Plan[],
  step: CanaryStep,
): CanaryChoice {
  const seconds = canarySeconds(step.seconds);
  const budget = CANARY_SHARE * step.rate;
  const canaries: Canary[] = [];
  const notes: string[] = [];
  let used = 0;
  for (const { plan, spare } of [...candidates].sort((a, b) => a.plan.perMinute - b.plan.perMinute)) {
    if (spare.length === 0) continue;
    const rate = canaryRate(plan.perMinute, step.windowSeconds, seconds);
    if (used + rate > budget + 1e-9) {
      const beyond = `beyond ${CANARY_SHARE * 100} % of the step's ${round(step.rate)} req/s`;
      notes.push(`no ${plan.name} canary: it would send ${round(rate)} req/s in step ${step.number}, ${beyond}`);
      continue;
    }
    used += rate;
    canaries.push({ plan: plan.name, key: spare[spare.length - 1]!, perMinute: plan.perMinute, rate, seconds });
  }
  if (canaries.length > 0) return { canaries, notes };
  return { canaries, notes, need: needOf(candidates, allPlans, step) };
}

const round = (v: number): number => Math.round(v * 10) / 10;

/** "one spare free key, or --step-seconds ≥ 70": the cheapest ways to a canary that can judge. */
function needOf(candidates: readonly SpareKeys[], allPlans: readonly Plan[], step: CanaryStep): string {
  const withSpare = new Set(candidates.filter((c) => c.spare.length > 0).map((c) => c.plan.name));
  const bySize = [...allPlans].sort((a, b) => a.perMinute - b.perMinute);
  const ways: string[] = [];
  const fitsNow = bySize.find((p) => minStepSeconds(p.perMinute, step) <= step.seconds && !withSpare.has(p.name));
  if (fitsNow) ways.push(`one spare ${fitsNow.name} key`);
  const longer = bySize
    .filter((p) => withSpare.has(p.name))
    .map((p) => minStepSeconds(p.perMinute, step))
    .filter(Number.isFinite);
  if (longer.length > 0) ways.push(`--step-seconds ≥ ${Math.min(...longer)}`);
  if (ways.length === 0) {
    const smallest = bySize[0]!;
    const s = minStepSeconds(smallest.perMinute, step);
    const stepRate = (CANARY_OVERSHOOT * smallest.perMinute) / step.windowSeconds / CANARY_SHARE;
    const higher = `a planned rate ≥ ${round(stepRate)} req/s (for a ${smallest.name} canary)`;
    ways.push(Number.isFinite(s) ? `one spare ${smallest.name} key and --step-seconds ≥ ${s}` : higher);
  }
  return ways.join(', or ');
}

/** The usage error when no canary can judge: the rule, then what would let one. */
export function noCanaryMessage(step: CanaryStep, need: string): string {
  return (
    `no canary can cross its quota during step ${step.number} (${round(step.rate)} req/s, ${step.seconds} s): ` +
    `a canary sends ≥ ${CANARY_OVERSHOOT} × its per-minute quota within one ${step.windowSeconds} s window ` +
    `at ≤ ${CANARY_SHARE * 100} % of its step's rate; needs ${need} (or --no-canaries, leaving quota under load unjudged)`
  );
}
