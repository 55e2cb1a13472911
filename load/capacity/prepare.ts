// A capacity run from its inputs, before any load: the key file read, the settings parsed once, the
// plan built once (for N runners when a TestRun is emitted). Every problem is a ConfigError (exit 2)
// naming what to change: too few keys, or no canary that could judge (canary-plan.ts).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, errorMessage } from '../../core/errors.ts';
import { loadPlansFile } from '../../spec/plans-file.ts';
import type { PlanTable } from '../../spec/plans.ts';
import { noCanaryMessage } from './canary-plan.ts';
import { parseKeysFile, type PlanKey } from './keys-file.ts';
import { buildPlan, canaryStepOf, type CapacityPlan } from './plan.ts';
import { readSettings, type CapacitySettings, type SettingsEnv } from './settings.ts';

export interface CapacityInputs {
  baseUrl: string;
  keysFile: string;
  plansFile?: string;
  /** The settings by their names (settings.ts): the flags, or a TestRun's env. */
  settings: SettingsEnv;
  /** where env:NAME keys are read */
  env: Record<string, string | undefined>;
}

export interface Prepared {
  baseUrl: string;
  /** absolute */
  keysFile: string;
  plansFile?: string;
  keys: PlanKey[];
  plans: PlanTable;
  settings: CapacitySettings;
  plan: CapacityPlan;
}

function readKeys(path: string, env: Record<string, string | undefined>): PlanKey[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read: ${errorMessage(error)}`, '--keys-file');
  }
  return parseKeysFile(text, path, env);
}

export function prepareCapacity(i: CapacityInputs): Prepared {
  const keysFile = resolve(i.keysFile);
  const keys = readKeys(keysFile, i.env);
  const plans = loadPlansFile(i.plansFile);
  const settings = readSettings(i.settings, plans);
  const plan = buildPlan(settings, plans, keys);
  if (plan.canaryNeed !== null)
    throw new ConfigError(noCanaryMessage(canaryStepOf(plan, settings), plan.canaryNeed), '--keys-file');
  const plansFile = i.plansFile === undefined ? undefined : resolve(i.plansFile);
  return { baseUrl: i.baseUrl, keysFile, plansFile, keys, plans, settings, plan };
}

/** What the plan says about itself, for the start of a run. */
export function planLines(p: Prepared): string[] {
  const rate = (r: number) => `${Math.round(r * 10) / 10} req/s`;
  const perPlan = Object.entries(p.plan.perPlanPlanned)
    .map(([n, r]) => `${n} ${rate(r)}`)
    .join(', ');
  const scaled =
    p.plan.scale < 1 ? ` (scaled to the keys: ${Math.round(p.plan.scale * 1000) / 10} % of the schedule)` : '';
  const load = Object.entries(p.plan.load)
    .map(([n, ks]) => `${ks.length} ${n}`)
    .join(', ');
  const canaries =
    p.plan.canaries.map((c) => `${c.plan} at ${Math.round(c.rate * 10) / 10} req/s`).join(', ') || 'none';
  return [
    `planned rate ${rate(p.plan.plannedRate)} (${perPlan})`,
    `steps: ${p.plan.steps.map((s) => rate(s.offeredRate)).join(' → ')}, ${p.settings.stepSeconds} s each${scaled}`,
    `keys: ${load} carrying load; canaries (step ${p.plan.canaryStep + 1}): ${canaries}`,
    ...p.plan.notes,
  ];
}
