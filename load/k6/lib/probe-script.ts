// What the probe scripts share: run some probes of the core once, turn each CheckResult into a k6
// check (failures must surface through checks and thresholds: errors thrown in async code are only
// logged), and emit the JSON summary (stdout, and REPORT_DIR when given).
import { check } from 'k6';
import type { Options } from 'k6/options';
import { silentProgress } from '../../../core/progress.ts';
import type { CheckResult } from '../../../report/model.ts';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../../../core/request-timeout.ts';
import { quotaBound, type Bound } from '../../probes/bounds.ts';
import type { ProbeName } from '../../probes/checks.ts';
import { createContext } from '../../probes/context.ts';
import { runProbes } from '../../probes/run.ts';
import { markedLine, petcertSummary, summaryText, type K6SummaryInput } from '../../shared/summary.ts';
import type { ScriptConfig } from './config.ts';
import { EVERY_CHECK_PASSES, guarded, NO_SILENT_PASS, refuseReplacedScenarios } from './guards.ts';
import { k6Clock, k6Send } from './send.ts';

/**
 * MUST failures fail the check; SHOULD and OBSERVE are recorded as passing checks with their outcome in
 * the name, and so is a skipped MUST: under its bare id it would read as a MUST that passed.
 */
function reportCheck(result: CheckResult): void {
  const bare = result.level === 'MUST' && result.outcome !== 'skip';
  const name = bare ? result.id : `${result.id} (${result.level}: ${result.outcome})`;
  const ok = result.level !== 'MUST' || result.outcome !== 'fail';
  check(result, { [name]: () => ok });
  if (result.outcome === 'fail') console.warn(`${result.id}: ${result.failures.map((f) => f.message).join(' | ')}`);
  if (result.outcome === 'skip') console.log(`${result.id} skipped: ${result.skipReason ?? ''}`);
}

/** The core's worst case for these probes on these keys (load/probes/bounds.ts), with k6's request timeout. */
export function probeBound(config: ScriptConfig, only: ProbeName[]): Bound {
  return quotaBound({
    windows: config.plans.windows,
    plans: config.keys.map((k) => k.plan),
    only,
    timeoutMs: DEFAULT_REQUEST_TIMEOUT_MS,
  });
}

/**
 * k6 stops the scenario at maxDuration whatever the probe is doing: it is the core's bound plus a margin
 * for k6's own start, so the core's deadline (below) ends the probes, with their reasons, first.
 */
const K6_MARGIN_S = 30;
export const maxDurationS = (bound: Bound): number => Math.ceil(bound.totalMs / 1000) + K6_MARGIN_S;

export async function runProbeScript(
  config: ScriptConfig,
  only: ProbeName[],
  filter: (r: CheckResult) => boolean = () => true,
): Promise<void> {
  // As under Node (load/quota.ts): past the bound nothing is sent, and the last request ends within its timeout.
  const deadline = k6Clock.now() + probeBound(config, only).totalMs - DEFAULT_REQUEST_TIMEOUT_MS;
  const ctx = createContext({
    send: k6Send(),
    clock: k6Clock,
    baseUrl: config.baseUrl,
    windows: config.plans.windows,
    progress: silentProgress,
    deadline,
  });
  try {
    const results = await runProbes(ctx, config.keys, only, config.secrets);
    for (const r of results.checks.filter(filter)) reportCheck(r);
  } catch (error) {
    check(null, { [`probe run completed (${only.join(', ')})`]: () => false });
    console.error(`probe run stopped: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * handleSummary's outputs: always stdout, a verdict line and the summary as one SUMMARY_MARKER line;
 * k6-<script>.json only into REPORT_DIR, which readConfig checked at init (k6 cannot create folders and
 * a failed write does not change its exit code, so nothing here claims a file it has not checked).
 */
export function summaryFiles(script: string, config: ScriptConfig, data: K6SummaryInput): Record<string, string> {
  // Read once: each reading copies all of k6's summary data.
  const summary = petcertSummary(script, config.baseUrl, data);
  const verdict = summary.passed;
  const word =
    verdict === true ? 'passed' : verdict === false ? 'FAILED' : 'checks passed (thresholds: see the exit code)';
  const file = config.reportDir === undefined ? undefined : `${config.reportDir}/k6-${script}.json`;
  const where = file === undefined ? 'set REPORT_DIR=/absolute/folder to also write a file' : `also written to ${file}`;
  const stdout = `${script}: ${word}; summary on the next line (${where})\n${markedLine(summary, config.secrets)}\n`;
  return file === undefined ? { stdout } : { stdout, [file]: summaryText(summary, config.secrets) };
}

export interface ProbeScriptModule {
  options: Options;
  setup(): void;
  run(): Promise<void>;
  handleSummary(data: K6SummaryInput): Record<string, string>;
}

/**
 * Everything a probe script exports, from its name and the probes it runs (its longest run is theirs):
 * one scenario of one iteration, the thresholds that fail a run with a failed MUST check or no request,
 * setup() refusing scenarios replaced on the command line, iterations aborting on a throw, the summary.
 */
export function probeScriptModule(
  script: string,
  config: ScriptConfig,
  only: ProbeName[],
  filter?: (r: CheckResult) => boolean,
): ProbeScriptModule {
  const scenario = script.replace(/-/g, '_');
  const maxDuration = `${maxDurationS(probeBound(config, only))}s`;
  return {
    options: {
      scenarios: { [scenario]: { executor: 'per-vu-iterations', vus: 1, iterations: 1, maxDuration } },
      thresholds: { ...EVERY_CHECK_PASSES, ...NO_SILENT_PASS },
    },
    setup: () => refuseReplacedScenarios([scenario]),
    run: guarded(script, () => runProbeScript(config, only, filter)),
    handleSummary: (data) => summaryFiles(script, config, data),
  };
}
