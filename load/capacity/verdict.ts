// Per-step verdicts and the capacity verdict. A step is "ok" when it met the SLO with achieved ≥ 95 %
// of offered; "generator" when the shortfall is petcert's (above the generator's calibrated limit, or
// iterations dropped while the target answered within the SLO); otherwise "slo". The sustained rate is
// the highest ok step below the first "slo" step (the breaking rate); headroom = sustained / planned.
import type { CapacityStep, CapacityVerdict, StepVerdict } from '../../report/capacity.ts';
import type { MergedStep } from './merge.ts';
import { reportedPercentiles, sloBreaches, type Slo } from './slo.ts';

/** A step keeps up when it achieved at least this share of its offered rate. */
export const ACHIEVED_SHARE = 0.95;

export interface Generator {
  /** req/s the generator reached against a trivial local target; null when not calibrated */
  limit: number | null;
  /** true when the calibration kept up, so the limit is at least this (not reached) */
  atLeast: boolean;
}

const round = (v: number, digits = 2): number => Math.round(v * 10 ** digits) / 10 ** digits;

export function judgeStep(step: MergedStep, slo: Slo, generator: Generator): CapacityStep {
  const achievedRate = step.requests / step.seconds;
  const errorRate = step.requests === 0 ? 1 : step.failed / step.requests;
  const percentilesMs: Record<string, number | null> = {};
  for (const p of reportedPercentiles(slo)) percentilesMs[p] = step.percentilesMs[p] ?? null;
  const breaches = sloBreaches(slo, step.percentilesMs, errorRate);
  const keepsUp = achievedRate >= ACHIEVED_SHARE * step.offeredRate;
  if (!keepsUp)
    breaches.push(
      `achieved ${round(achievedRate)} req/s < ${ACHIEVED_SHARE * 100} % of` +
        ` ${round(step.offeredRate)}${step.dropped ? ` (${step.dropped} iterations dropped)` : ''}`,
    );
  const aboveGenerator = generator.limit !== null && !generator.atLeast && step.offeredRate > generator.limit;
  const verdict: StepVerdict =
    breaches.length === 0 ? 'ok' : aboveGenerator || (!keepsUp && breaches.length === 1) ? 'generator' : 'slo';
  return {
    offeredRate: round(step.offeredRate),
    achievedRate: round(achievedRate),
    p50Ms: percentilesMs['50'] ?? null,
    p95Ms: percentilesMs['95'] ?? null,
    p99Ms: percentilesMs['99'] ?? null,
    errorRate: round(errorRate, 5),
    droppedIterations: step.dropped,
    below_quota_429: step.below429,
    verdict,
    breaches,
    percentilesMs,
    percentiles: step.percentiles,
    requests: step.requests,
    ...(step.noAnswer ? { noAnswer: step.noAnswer } : {}),
    unexpected4xx: step.unexpected4xx,
    runners: step.runners,
    coverage: round(step.coverage, 4),
  };
}

/** Early stop: a run stops once two steps broke the SLO, or once the generator saturated. */
export function shouldStop(steps: readonly CapacityStep[]): boolean {
  return steps.filter((s) => s.verdict === 'slo').length >= 2 || steps.some((s) => s.verdict === 'generator');
}

export interface VerdictInput {
  plannedRate: number;
  slo: Slo;
  sloText: string;
  minHeadroom: number;
  generator: Generator;
  scale: number;
  /** the schedule's top rate (for --scale-to-keys) */
  topRate: number;
  /** The steps as the run judged them while it ran (for its early stop): never judged twice. */
  judged?: readonly CapacityStep[];
}

export function capacityVerdict(merged: readonly MergedStep[], input: VerdictInput): CapacityVerdict {
  const steps = input.judged ? [...input.judged] : merged.map((s) => judgeStep(s, input.slo, input.generator));
  const firstBreak = steps.findIndex((s) => s.verdict === 'slo');
  const firstGen = steps.findIndex((s) => s.verdict === 'generator');
  const end = [firstBreak, firstGen].filter((i) => i !== -1).reduce((a, b) => Math.min(a, b), steps.length);
  const sustained = steps
    .slice(0, end)
    .filter((s) => s.verdict === 'ok')
    .reduce((m, s) => Math.max(m, s.offeredRate), 0);
  const headroom = input.plannedRate > 0 ? sustained / input.plannedRate : 0;
  const generatorBoundAt = firstGen !== -1 && firstGen === end ? steps[firstGen]!.offeredRate : null;
  const keysBoundAt = input.scale < 1 && end === steps.length ? round(input.topRate) : null;
  const v: CapacityVerdict = {
    plannedRate: round(input.plannedRate),
    sustainedRate: round(sustained),
    breakingRate: firstBreak === -1 ? null : steps[firstBreak]!.offeredRate,
    headroom: round(headroom, 3),
    generatorLimit: input.generator.limit === null ? null : round(input.generator.limit),
    slo: {
      latencyMs: input.slo.latency,
      errorRate: input.slo.errorRate,
      achievedShare: ACHIEVED_SHARE,
      text: input.sloText,
    },
    steps,
    minHeadroom: input.minHeadroom,
    generatorLimitIsLowerBound: input.generator.atLeast,
    generatorBoundAt,
    scale: round(input.scale, 4),
    keysBoundAt,
    summary: '',
  };
  v.summary = summaryOf(v);
  return v;
}

/**
 * The run's figures in one sentence. Which way it went is the report's verdict over the checks
 * (capacity.headroom among them, checks.ts), said by the publish step as for every command: not here.
 */
function summaryOf(v: CapacityVerdict): string {
  const base = `planned ${v.plannedRate} req/s; sustained ${v.sustainedRate} req/s (headroom ${v.headroom} × planned, needed ${v.minHeadroom})`;
  const breaking = v.breakingRate === null ? 'no step broke the SLO' : `breaking at ${v.breakingRate} req/s`;
  const tail: string[] = [];
  if (v.generatorBoundAt !== null) tail.push(`generator-bound at ${v.generatorBoundAt} req/s; use --emit-testrun`);
  if (v.keysBoundAt !== null)
    tail.push(`scaled to keys: the keys carry at most ${v.keysBoundAt} req/s (${v.scale} × the schedule)`);
  return [`${base}; ${breaking}`, ...tail].join('; ');
}
