// N runners' results → one per step. Counts and rates add, and so do the runners' latency histograms
// (load/shared/histogram.ts): a percentile of several runners is read from their merged histogram,
// within 1 % of the percentile of all their samples, and the SLO and knee are judged on it. One
// runner's percentiles are k6's own, exact. Logs without histograms (older runners) fall back to the
// largest runner's percentile: an upper bound (a percentile of the union lies between their smallest
// and largest).
import { ConfigError } from '../../core/errors.ts';
import { parseSegment } from '../shared/segment.ts';
import type { PercentileKind } from '../../report/capacity.ts';
import { mergeHistograms, percentile, type Histogram } from '../shared/histogram.ts';
import type { CanaryResult, RunnerResult, RunnerStep } from './result.ts';

/** A step of all runners: their counts added, percentiles exact or an upper bound (`percentiles`). */
export interface MergedStep extends Omit<RunnerStep, 'share'> {
  percentiles: PercentileKind;
  /** Share of the offered rate the runners present cover (1 when every runner reported). */
  coverage: number;
  runners: number;
}

export interface Merged {
  steps: MergedStep[];
  canaries: CanaryResult[];
  runners: number;
}

/** Percentiles of several runners: from their merged histogram, else the largest (an upper bound). */
function mergedPercentiles(parts: readonly RunnerStep[]): {
  percentilesMs: Record<string, number>;
  percentiles: PercentileKind;
  histogram?: Histogram;
} {
  if (parts.length === 1)
    return { percentilesMs: parts[0]!.percentilesMs, percentiles: 'exact', histogram: parts[0]!.histogram };
  const percentilesMs: Record<string, number> = {};
  const names = [...new Set(parts.flatMap((s) => Object.keys(s.percentilesMs)))];
  if (parts.every((s) => s.histogram !== undefined)) {
    const histogram = mergeHistograms(parts.map((s) => s.histogram!));
    for (const p of names) percentilesMs[p] = percentile(histogram, Number(p))!;
    return { percentilesMs, percentiles: 'histogram', histogram };
  }
  for (const s of parts)
    for (const [p, v] of Object.entries(s.percentilesMs)) percentilesMs[p] = Math.max(percentilesMs[p] ?? -Infinity, v);
  return { percentilesMs, percentiles: 'upper-bound' };
}

function addCounts(counts: ReadonlyArray<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of counts) for (const [k, n] of Object.entries(c)) out[k] = (out[k] ?? 0) + n;
  return out;
}

function mergeStep(parts: RunnerStep[]): MergedStep {
  const sum = (f: (s: RunnerStep) => number) => parts.reduce((a, s) => a + f(s), 0);
  const withRequests = parts.filter((s) => s.requests > 0);
  const { percentilesMs, percentiles, histogram } =
    withRequests.length === 0
      ? { percentilesMs: {}, percentiles: 'exact' as const, histogram: undefined }
      : mergedPercentiles(withRequests);
  return {
    index: parts[0]!.index,
    offeredRate: parts[0]!.offeredRate,
    seconds: Math.max(...parts.map((s) => s.seconds)),
    requests: sum((s) => s.requests),
    failed: sum((s) => s.failed),
    dropped: sum((s) => s.dropped),
    below429: sum((s) => s.below429),
    unexpected4xx: sum((s) => s.unexpected4xx),
    noAnswer: sum((s) => s.noAnswer ?? 0),
    noAnswerErrors: addCounts(parts.map((s) => s.noAnswerErrors ?? {})),
    percentilesMs,
    percentiles,
    histogram,
    coverage: sum((s) => s.share),
    runners: parts.length,
  };
}

/** Runners must not overlap (two results of one segment would double-count); gaps are reported as coverage < 1. */
function checkSegments(results: readonly RunnerResult[]): void {
  const spans = results
    .map((r) => ({ ...parseSegment(r.segment === '0:1' ? undefined : r.segment), segment: r.segment }))
    .sort((a, b) => a.from - b.from);
  for (let i = 1; i < spans.length; i++) {
    if (spans[i]!.from < spans[i - 1]!.to - 1e-9)
      throw new ConfigError(
        `runner results overlap: segments ${spans[i - 1]!.segment} and ${spans[i]!.segment} (the same runner's log given twice?)`,
        'merge',
      );
  }
  checkSequences(results);
}

/**
 * Runners pick load keys by iteration number, which k6 numbers without overlap only across runners given
 * one --execution-segment-sequence (a runner without one aborts in setup, unless run with --no-setup).
 * Lines without the field come from bundles whose runners owned whole keys: nothing to check.
 */
function checkSequences(results: readonly RunnerResult[]): void {
  const told = results.filter((r) => r.sequence !== undefined);
  if (results.length < 2 || told.length === 0) return;
  const sequences = new Set(told.map((r) => r.sequence ?? 'none'));
  if (sequences.size === 1 && !sequences.has('none')) return;
  const given = told.map((r) => `${r.segment}: ${r.sequence ?? 'none'}`).join('; ');
  throw new ConfigError(
    `the runners were not given one --execution-segment-sequence (${given}): their iteration numbers, ` +
      'which pick the load keys, overlapped, and some keys carried more than the plan allows. Run them ' +
      'again, each with the same sequence (the k6-operator passes one)',
    'merge',
  );
}

export function mergeResults(results: readonly RunnerResult[]): Merged {
  if (results.length === 0)
    throw new ConfigError(
      'no petcert capacity result line found (k6 prints it on stdout at the end of the run)',
      'merge',
    );
  checkSegments(results);
  const byIndex = new Map<number, RunnerStep[]>();
  for (const r of results) for (const s of r.steps) byIndex.set(s.index, [...(byIndex.get(s.index) ?? []), s]);
  const steps = [...byIndex.keys()].sort((a, b) => a - b).map((i) => mergeStep(byIndex.get(i)!));
  return { steps, canaries: results.flatMap((r) => r.canaries), runners: results.length };
}
