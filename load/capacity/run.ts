// The capacity engine, as runQuota is quota's: from a prepared run (prepare.ts) to its Report.
// Preflight (one request), generator calibration (the top step against a trivial local target), then
// one k6 process per step so the run stops once two steps broke the SLO; each step is judged once, as
// it ends, and those judgements make the verdict. `mergeCapacity` is the same verdict from N runners'
// logs (k6-operator).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AbortRunError, PetcertError } from '../../core/errors.ts';
import { DIRECT, type Network } from '../../http/network.ts';
import { k6ClientFiles, k6NetworkEnv } from '../k6-network.ts';
import { NoAnswerError, notMeasured } from './no-answer.ts';
import type { CapacityStep } from '../../report/capacity.ts';
import type { Report } from '../../report/model.ts';
import { stepProcessTimeoutMs } from './bound.ts';
import { calibrate } from './calibrate.ts';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../../core/request-timeout.ts';
import { DOCUMENT_VERSION, type CapacityDocument } from './document.ts';
import { runCapacityK6, type CapacityK6 } from './k6-run.ts';
import { readRunnerLogs } from './logs.ts';
import { mergeResults } from './merge.ts';
import { preflight } from './preflight.ts';
import type { Prepared } from './prepare.ts';
import { capacityReport } from './report.ts';
import type { RunnerResult } from './result.ts';
import { runInfo } from './run-info.ts';
import { judgeStep, shouldStop, type Generator } from './verdict.ts';

export interface CapacityRun {
  prepared: Prepared;
  k6: string;
  script: string;
  calibrate: boolean;
  maxVus: number;
  /** k6's own outputs (`--out`), passed through to every step's process */
  outputs?: readonly string[];
  version: string;
  /** progress lines for people */
  say(line: string): void;
  /** petcert's SIGINT/SIGTERM: the k6 process running stops at once, its step is not judged. */
  interrupt?: AbortSignal;
  /** Proxy, trust, client certificate (default: direct, system roots): for the preflight and k6 alike. */
  network?: Network;
  /** Where k6's log is kept when a step got no answer (the report root). */
  logDir?: string;
}

const NO_GENERATOR: Generator = { limit: null, atLeast: false };
/** The calibration holds the top step this long at most. */
const CALIBRATION_SECONDS = 5;

/** `netDir`: the run's private folder (an encrypted client key is handed to k6 decrypted there). */
function documentOf(p: Prepared, maxVus: number, network: Network, netDir: string): CapacityDocument {
  const { baseUrl, settings, plan } = p;
  const client = k6ClientFiles(network, netDir);
  const tls = client && { domains: [new URL(baseUrl).hostname], ...client };
  return {
    version: DOCUMENT_VERSION,
    baseUrl,
    settings,
    plan,
    step: null,
    maxVus,
    requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS,
    ...(tls ? { tls } : {}),
  };
}

function stepLine(j: CapacityStep, n: number, of: number): string {
  const ms = (v: number | null) => v?.toFixed(1);
  const broke = j.breaches.length ? ` (${j.breaches.join('; ')})` : '';
  return (
    `  step ${n}/${of}: offered ${j.offeredRate} req/s, achieved ${j.achievedRate}, p95 ${ms(j.p95Ms)} ms, ` +
    `p99 ${ms(j.p99Ms)} ms, errors ${(j.errorRate * 100).toFixed(2)} %, dropped ${j.droppedIterations}, ` +
    `429 below quota ${j.below_quota_429} → ${j.verdict}${broke}`
  );
}

async function generatorOf(r: CapacityRun, k6: CapacityK6, doc: CapacityDocument): Promise<Generator> {
  if (!r.calibrate) return NO_GENERATOR;
  const seconds = Math.min(r.prepared.settings.stepSeconds, CALIBRATION_SECONDS);
  const g = await calibrate(k6, doc, seconds).catch(interrupted);
  if (g === undefined) return NO_GENERATOR;
  const top = Math.round(g.offeredRate);
  const how = g.atLeast ? ' (kept up: the limit is higher)' : ' (saturated: steps above it are generator-bound)';
  r.say(`generator: ${Math.round(g.achievedRate)} req/s against a trivial local target at ${top} offered${how}`);
  return g;
}

/** A k6 process stopped by petcert's own interrupt ends the run; anything else is rethrown. */
function interrupted(error: unknown): undefined {
  if (error instanceof AbortRunError && error.reason === 'INTERRUPTED') return undefined;
  throw error;
}

/** The steps, one k6 process each, judged as each ends; stops once shouldStop says so, or when interrupted. */
async function runSteps(r: CapacityRun, k6: CapacityK6, doc: CapacityDocument, generator: Generator) {
  const timeoutMs = stepProcessTimeoutMs(r.prepared.settings.stepSeconds);
  const results: RunnerResult[] = [];
  const judged: CapacityStep[] = [];
  for (const step of doc.plan.steps) {
    if (r.interrupt?.aborted) break;
    const result = await runCapacityK6(k6, { ...doc, step: step.index }, timeoutMs).catch(interrupted);
    if (!result) break; // interrupted: the step k6 was stopped in is not judged
    results.push(result);
    judged.push(judgeStep(mergeResults([result]).steps[0]!, r.prepared.settings.slo, generator));
    r.say(stepLine(judged.at(-1)!, step.index + 1, doc.plan.steps.length));
    if (shouldStop(judged)) break;
  }
  if (results.length === 0) return undefined;
  // One runner's steps, one process each, as if one runner had run them all.
  const one: RunnerResult = {
    ...results[0]!,
    steps: results.flatMap((x) => x.steps),
    canaries: results.flatMap((x) => x.canaries),
  };
  return { merged: mergeResults([one]), judged };
}

/**
 * Preflight, calibration, steps, report. A k6 failure throws (K6_FAILED: the run stopped before a
 * verdict, exit 3); an interrupt ends the steps and the report says what was judged.
 */
export async function runCapacity(r: CapacityRun): Promise<Report> {
  const p = r.prepared;
  const network = r.network ?? DIRECT;
  await preflight(p.baseUrl, Object.values(p.plan.load).flat()[0]!, network);
  const startedAt = new Date().toISOString();
  // The trust bundle k6 reads (SSL_CERT_FILE) lives as long as the run.
  const netDir = mkdtempSync(join(tmpdir(), 'petcert-capacity-net-'));
  try {
    const env = k6NetworkEnv(network, netDir);
    const k6: CapacityK6 = {
      k6: r.k6,
      script: r.script,
      secrets: p.keys.map((k) => k.key),
      outputs: r.outputs,
      interrupt: r.interrupt,
      env,
    };
    return await measured(r, k6, documentOf(p, r.maxVus, network, netDir), startedAt);
  } catch (error) {
    if (!(error instanceof NoAnswerError)) throw error;
    return notMeasuredReport(r, error, startedAt);
  } finally {
    rmSync(netDir, { recursive: true, force: true });
  }
}

/** k6's own log, kept in the report folder: what it said about every request that got no answer. */
function keepK6Log(r: CapacityRun, error: NoAnswerError, at: string): string | undefined {
  if (r.logDir === undefined) return undefined;
  mkdirSync(r.logDir, { recursive: true });
  const path = join(r.logDir, `capacity-k6-${at.replace(/\.\d+Z$/, 'Z').replace(/:/g, '-')}.log`);
  writeFileSync(path, error.k6Log);
  return path;
}

/** A run k6 got no answer in: stopped before a verdict (exit 3), no check judged, k6's errors said. */
function notMeasuredReport(r: CapacityRun, error: NoAnswerError, startedAt: string): Report {
  const log = keepK6Log(r, error, startedAt);
  const message = `${error.message}${log ? ` k6's log: ${log}` : ''}`;
  const at = new Date().toISOString();
  return {
    tool: 'petcert',
    version: r.version,
    kind: 'capacity',
    target: r.prepared.baseUrl,
    startedAt,
    finishedAt: at,
    seed: null,
    requests: 0,
    checks: [],
    aborted: { code: 'UNREACHABLE', message },
  };
}

/** Calibration, steps, report: the run as measured. */
async function measured(r: CapacityRun, k6: CapacityK6, doc: CapacityDocument, startedAt: string): Promise<Report> {
  const p = r.prepared;
  const generator = await generatorOf(r, k6, doc);
  const ran = r.interrupt?.aborted ? undefined : await runSteps(r, k6, doc, generator);
  const finishedAt = new Date().toISOString();
  if (ran === undefined) {
    // Interrupted before a step finished: nothing judged, the report says so (cli/interrupt.ts marks it).
    return {
      tool: 'petcert',
      version: r.version,
      kind: 'capacity',
      target: p.baseUrl,
      startedAt,
      finishedAt,
      seed: null,
      requests: 0,
      checks: [],
    };
  }
  const keys = Object.fromEntries(Object.entries(p.plan.load).map(([n, ks]) => [n, ks.length]));
  // Interrupted: run-level checks need every step, so a pass on the steps done is not proven (checks.ts).
  const interrupted = r.interrupt?.aborted ? { done: ran.judged.length, total: p.plan.steps.length } : undefined;
  return capacityReport({
    version: r.version,
    run: runInfo(p.baseUrl, p.settings, p.plan),
    merged: ran.merged,
    judged: ran.judged,
    generator,
    startedAt,
    finishedAt,
    plans: p.plans,
    extra: { mix: p.plan.perPlanPlanned, keys, notes: p.plan.notes },
    interrupted,
  });
}

export const isK6Failure = (error: unknown): error is PetcertError =>
  error instanceof PetcertError && error.code === 'K6_FAILED';

export interface MergedCapacity {
  report: Report;
  /** e.g. a runner's log missing */
  warnings: string[];
}

/** One verdict from N runners' logs: counts add, percentiles as merge.ts states them. */
export function mergeCapacity(files: readonly string[], version: string): MergedCapacity {
  const results = readRunnerLogs(files);
  const merged = mergeResults(results);
  const now = new Date().toISOString();
  const unmeasured = merged.steps.map(notMeasured).find((why) => why !== undefined);
  if (unmeasured) {
    const aborted = { code: 'UNREACHABLE' as const, message: `${unmeasured} (the runners' logs hold k6's messages)` };
    return {
      report: {
        tool: 'petcert',
        version,
        kind: 'capacity',
        target: results[0]!.run.target,
        startedAt: now,
        finishedAt: now,
        seed: null,
        requests: 0,
        checks: [],
        aborted,
      },
      warnings: [],
    };
  }
  const kind = merged.steps[0]?.percentiles ?? 'exact';
  const percentiles = {
    exact: "exact (one runner: k6's own)",
    histogram: "from the runners' merged histograms: within 1 % of the percentiles of all samples",
    'upper-bound': "upper bounds: the largest of the runners' (logs without histograms)",
  }[kind];
  const extra = { merge: { runners: results.length, segments: results.map((r) => r.segment), percentiles } };
  const report = capacityReport({
    version,
    run: results[0]!.run,
    merged,
    generator: NO_GENERATOR,
    startedAt: now,
    finishedAt: now,
    extra,
  });
  const uncovered = merged.steps.find((s) => s.coverage < 0.999);
  const warning =
    uncovered &&
    `warning: runners cover only ${Math.round(uncovered.coverage * 100)} % of the load of step ${uncovered.index + 1}: a runner's log is missing`;
  return { report, warnings: warning ? [warning] : [] };
}
