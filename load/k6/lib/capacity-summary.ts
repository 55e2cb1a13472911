// The capacity runner's result line (load/capacity/result.ts) from k6's end-of-test summary, both
// shapes (legacy, --new-machine-readable-summary). Run once, in the summary's runtime, through the
// bundle's cold path (capacity-cold.lazy.ts).
import type { CapacityDocument } from '../../capacity/document.ts';
import { resultLine, RESULT_VERSION, type RunnerResult, type RunnerStep } from '../../capacity/result.ts';
import { runInfo } from '../../capacity/run-info.ts';
import { reportedPercentiles, trendStat } from '../../capacity/slo.ts';
import type { StepPlan } from '../../capacity/plan.ts';
import { eventCounts, noAnswerErrors } from '../../capacity/step-events.ts';
import { histogramFromChecks } from '../../shared/histogram.ts';
import { parseSegment } from '../../shared/segment.ts';
import { readK6Summary, type K6SummaryInput, type MetricValues } from '../../shared/summary.ts';
import { droppedMetric, stepsOf } from './capacity-options.ts';

type Checks = ReadonlyArray<{ name: string; passes: number; fails: number }>;

type Metrics = Record<string, MetricValues>;

function runnerStep(doc: CapacityDocument, m: Metrics, checks: Checks, step: StepPlan, share: number): RunnerStep {
  const { index } = step;
  const latency = m[`http_req_duration{step:${index}}`] ?? {};
  const events = eventCounts(checks, index);
  const percentilesMs: Record<string, number> = {};
  for (const p of reportedPercentiles(doc.settings.slo)) {
    const v = latency[trendStat(p)];
    if (typeof v === 'number') percentilesMs[p] = v;
  }
  const noAnswer = noAnswerErrors(checks, index);
  const dropped = Object.keys(step.perPlan).reduce(
    (sum, planName) => sum + (m[droppedMetric(index, planName)]?.count ?? 0),
    0,
  );
  return {
    index,
    offeredRate: step.offeredRate,
    share,
    seconds: doc.settings.stepSeconds,
    requests: latency.count ?? 0,
    failed: events.failed,
    dropped,
    below429: events.below429,
    unexpected4xx: events.unexpected4xx,
    percentilesMs,
    histogram: histogramFromChecks(checks, index),
    noAnswer: Object.values(noAnswer).reduce((a, n) => a + n, 0),
    noAnswerErrors: noAnswer,
  };
}

/** This runner's part of the test, as k6 was given it ("" and null: none). */
export interface RunnerSegment {
  segment: string;
  sequence: string | null;
}

/** handleSummary's files: the result line on stdout, and in REPORT_DIR when given. */
export function summaryFiles(
  doc: CapacityDocument,
  reportDir: string | undefined,
  runner: RunnerSegment,
  data: K6SummaryInput,
): Record<string, string> {
  const { segment, sequence } = runner;
  const span = parseSegment(segment);
  const { metrics, checks } = readK6Summary(data);
  const steps = stepsOf(doc).map((s) => runnerStep(doc, metrics, checks, s, span.to - span.from));
  const run = runInfo(doc.baseUrl, doc.settings, doc.plan);
  const result: RunnerResult = {
    tool: 'petcert-capacity',
    version: RESULT_VERSION,
    run,
    segment: segment || '0:1',
    sequence,
    steps,
    canaries: [],
  };
  const line = `${resultLine(result)}\n`;
  return reportDir === undefined ? { stdout: line } : { stdout: line, [`${reportDir}/k6-capacity.json`]: line };
}
