// The capacity bundle's k6 options, worked out once in its cold path (capacity-cold.lazy.ts) from the
// run document: one constant-arrival-rate scenario per step and plan, the canaries' scenario, and the
// thresholds that make k6 report each step's sub-metrics.
import type { Scenario } from 'k6/options';
import { CANARY_START } from '../../capacity/canary-plan.ts';
import type { CapacityDocument } from '../../capacity/document.ts';
import type { StepPlan } from '../../capacity/plan.ts';
import { reportedPercentiles, trendStat } from '../../capacity/slo.ts';
import { EVENT_THRESHOLDS } from '../../capacity/step-events.ts';
import { stepVUs } from '../../capacity/vus.ts';

export const scenarioName = (step: number, planName: string): string => `s${step}_${planName}`;
/** One scenario's dropped iterations, a sub-metric k6 reports because a threshold names it. */
export const droppedMetric = (step: number, planName: string): string =>
  `dropped_iterations{scenario:${scenarioName(step, planName)}}`;

/** The steps this process runs: all, or the one `petcert capacity` asked for. */
export const stepsOf = (doc: CapacityDocument): StepPlan[] =>
  doc.plan.steps.filter((s) => doc.step === null || s.index === doc.step);

export function stepScenarios(doc: CapacityDocument): Record<string, Scenario> {
  const steps = stepsOf(doc);
  const first = steps[0]!.index;
  const stepMs = Math.round(doc.settings.stepSeconds * 1000);
  const out: Record<string, Scenario> = {};
  for (const step of steps) {
    for (const [planName, rate] of Object.entries(step.perPlan)) {
      // VUs: load/capacity/vus.ts (all started before the step: 1 s of latency).
      const vus = stepVUs(rate, doc.maxVus);
      out[scenarioName(step.index, planName)] = {
        executor: 'constant-arrival-rate',
        rate: Math.max(1, Math.round(rate * 60)),
        timeUnit: '1m',
        duration: `${stepMs}ms`,
        startTime: `${(step.index - first) * stepMs}ms`,
        gracefulStop: '3s',
        preAllocatedVUs: vus,
        maxVUs: vus,
        tags: { step: String(step.index) },
      };
    }
  }
  const canaryStep = steps.find((s) => s.index === doc.plan.canaryStep);
  if (canaryStep && doc.plan.canaries.length > 0) {
    // Once the step's load is flowing; done by the step's end.
    out.canary = {
      executor: 'per-vu-iterations',
      exec: 'canary',
      vus: doc.plan.canaries.length,
      iterations: 1,
      startTime: `${(canaryStep.index - first) * stepMs + Math.round(stepMs * CANARY_START)}ms`,
      maxDuration: `${Math.round(stepMs * (1 - CANARY_START)) + 5000}ms`,
      tags: { step: `canary${canaryStep.index}` },
    };
  }
  return out;
}

/**
 * k6 reports a sub-metric only when a threshold names it: each step's latency (the SLO's percentiles,
 * so a plain `k6 run` fails past the knee too) and dropped iterations per scenario (rare samples). A 429
 * below quota fails its check, and so `checks` (step-events.ts). The SLO's error term bounds the run's
 * failed requests (5xx and no answer: capacity.ts sets the expected statuses); without one, a run none of
 * whose requests was answered still fails a plain `k6 run` (every per-step event check passes then).
 */
export function thresholds(doc: CapacityDocument): Record<string, string[]> {
  const { errorRate } = doc.settings.slo;
  const out: Record<string, string[]> = { ...EVENT_THRESHOLDS, http_req_failed: [`rate<${errorRate ?? 1}`] };
  for (const step of stepsOf(doc)) {
    const latency = Object.entries(doc.settings.slo.latency).map(([p, ms]) => `${trendStat(p)}<${ms}`);
    out[`http_req_duration{step:${step.index}}`] = latency.length ? latency : ['max>=0'];
    for (const planName of Object.keys(step.perPlan)) out[droppedMetric(step.index, planName)] = ['count>=0'];
  }
  return out;
}

/** The options' part that comes from the run (capacity-cold.lazy.ts vuZero adds what holds for every run). */
export interface RunOptions {
  scenarios: Record<string, Scenario>;
  thresholds: Record<string, string[]>;
  summaryTrendStats: string[];
}

export function runOptions(doc: CapacityDocument): RunOptions {
  const summaryTrendStats = [...reportedPercentiles(doc.settings.slo).map(trendStat), 'count'];
  return { scenarios: stepScenarios(doc), thresholds: thresholds(doc), summaryTrendStats };
}
