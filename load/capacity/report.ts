// A capacity run's report: the `capacity` object, the checks, and the run's facts, in the one report
// model every command writes (report.json, junit.xml, report.html).
import type { CapacityStep, CapacityVerdict } from '../../report/capacity.ts';
import type { CheckResult, Report } from '../../report/model.ts';
import type { PlanTable } from '../../spec/plans.ts';
import { judgeCanaries } from './canary.ts';
import type { Unjudged } from '../../report/check.ts';
import { boundOf, judgeCapacity, type CapacityObservation } from './checks.ts';
import type { Merged } from './merge.ts';
import type { RunInfo } from './result.ts';
import { parseSlo } from './slo.ts';
import { capacityVerdict, type Generator } from './verdict.ts';

export interface CapacityReportInput {
  version: string;
  run: RunInfo;
  merged: Merged;
  generator: Generator;
  startedAt: string;
  finishedAt: string;
  plans?: PlanTable;
  /** The steps as judged during the run (verdict.ts judgeStep), when it judged them. */
  judged?: readonly CapacityStep[];
  /** Facts to keep beside the verdict (mix, keys per plan, notes). */
  extra?: Record<string, unknown>;
  /** Set when petcert's interrupt ended the steps early (run.ts). */
  interrupted?: CapacityObservation['interrupted'];
}

function canarySkip(input: CapacityReportInput): Unjudged | undefined {
  if (!input.run.canariesRequested) return { reason: 'canaries off (--no-canaries)', fix: 'run without --no-canaries' };
  if (input.run.canaries === 0) {
    const reason = 'no canary can cross its quota within its step (every key carries load, or none is slow enough)';
    return { reason, fix: input.run.canaryNeed ?? 'one spare key of the smallest plan in the key file' };
  }
  if (!input.merged.steps.some((s) => s.index === input.run.canaryStep)) {
    return { reason: `the run stopped before step ${input.run.canaryStep + 1}, where the canaries run` };
  }
  if (input.merged.canaries.length === 0) return { reason: 'no canary reported a result (see the k6 log)' };
  return undefined;
}

export function capacityOf(input: CapacityReportInput): CapacityVerdict {
  return capacityVerdict(input.merged.steps, {
    plannedRate: input.run.plannedRate,
    slo: parseSlo(input.run.slo),
    sloText: input.run.slo,
    minHeadroom: input.run.minHeadroom,
    generator: input.generator,
    scale: input.run.scale,
    topRate: input.run.topRate,
    judged: input.judged,
  });
}

/** The run's observation: the steps as judged, the canaries' windows or why none could judge. */
function observationOf(input: CapacityReportInput, capacity: CapacityObservation['capacity']): CapacityObservation {
  const skip = canarySkip(input);
  const canaries = skip === undefined ? { judged: judgeCanaries(input.merged.canaries) } : { skipped: skip };
  return { capacity, canaries, interrupted: input.interrupted };
}

export function capacityReport(input: CapacityReportInput): Report {
  const capacity = Object.assign(capacityOf(input), { canaries: input.merged.canaries }, input.extra ?? {});
  const checks = judgeCapacity(observationOf(input, capacity));
  const report: Report = {
    tool: 'petcert',
    version: input.version,
    kind: 'capacity',
    target: input.run.target,
    startedAt: input.startedAt,
    finishedAt: input.finishedAt,
    seed: null,
    requests:
      input.merged.steps.reduce((a, s) => a + s.requests, 0) + input.merged.canaries.reduce((a, c) => a + c.sent, 0),
    checks,
    capacity,
  };
  if (input.plans) report.plans = input.plans;
  // Generator- or keys-bound: the headroom is unjudged, and the run stopped before a verdict on the
  // target (exit 3, as it always was). A canary not judged only makes the verdict INCOMPLETE (exit 4).
  const bound = boundOf(capacity);
  if (bound) report.aborted = { code: bound.code, message: `${bound.reason}; ${bound.fix}` };
  return report;
}
