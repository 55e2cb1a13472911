// The facts of a run every runner prints beside its figures, from the same settings and plan.
import type { CapacityPlan } from './plan.ts';
import type { RunInfo } from './result.ts';
import { SETTINGS, type CapacitySettings } from './settings.ts';

export function runInfo(target: string, settings: CapacitySettings, plan: CapacityPlan): RunInfo {
  return {
    target,
    plannedRate: plan.plannedRate,
    slo: sloText(settings),
    minHeadroom: settings.minHeadroom,
    scale: plan.scale,
    topRate: plan.steps[plan.steps.length - 1]!.offeredRate,
    stepCount: plan.steps.length,
    canaryStep: plan.canaryStep,
    canaries: plan.canaries.length,
    canariesRequested: settings.canaries,
    canaryNeed: plan.canaryNeed,
  };
}

/** The SLO as a line of text, rebuilt from the parsed terms (so equal SLOs print alike). */
function sloText(settings: CapacitySettings): string {
  const terms = Object.entries(settings.slo.latency).map(([p, ms]) => `p${p}<${ms}ms`);
  if (settings.slo.errorRate !== null) terms.push(`errors<${+(settings.slo.errorRate * 100).toFixed(4)}%`);
  return terms.join(',') || SETTINGS.slo.default;
}
