// The capacity bundle's cold path, bundled as a function evaluated on first use (scripts/k6-lazy.ts):
// what only the first init (the run document, the plan built, k6's options), the other __VU 0 runtimes
// (setup's, the summary's) and the canaries' VUs need (their whole iteration). The load VUs never
// evaluate it: its functions, the plan building and the generated contract's data cost one runtime
// each, not every VU. No k6 module here: the bundle's k6 side (../capacity.ts) passes in k6/execution
// and k6/http.
import { LIMIT, PET_STATUSES } from '../../../spec/contract.ts';
import type exec from 'k6/execution';
import type http from 'k6/http';
import type { Options } from 'k6/options';
import {
  canaryBudget,
  canaryResponse,
  canaryWindows,
  shouldSendMore,
  type CanaryResponse,
} from '../../capacity/canary.ts';
import type { Canary } from '../../capacity/canary-plan.ts';
import {
  documentFromEnv,
  readDocument,
  withoutLoadKeys,
  type CapacityDocument,
  type DocumentTls,
} from '../../capacity/document.ts';
import { parseKeysFile, type PlanKey } from '../../capacity/keys-file.ts';
import { operationCuts, type OperationCuts } from '../../capacity/operation-picker.ts';
import { listQueries } from '../../capacity/requests.ts';
import { canaryLine } from '../../capacity/result.ts';
import { iterationThrew, NO_SILENT_PASS, replacedScenarios } from '../../shared/guards.ts';
import { parseKeysEnv } from '../../shared/keys.ts';
import { keysForSegment, unsharedSequence } from '../../shared/segment.ts';
import type { K6SummaryInput } from '../../shared/summary.ts';
import { runOptions, scenarioName, stepsOf, type RunOptions } from './capacity-options.ts';
import { summaryFiles, type RunnerSegment } from './capacity-summary.ts';
import { readTarget } from './config.ts';

/** Where a list sits in the run's SharedArray: elements [start, start + count). */
export interface SharedRange {
  start: number;
  count: number;
}

/**
 * What every VU reads of the run (SharedArray element 0): only what an iteration needs, no load key.
 * A load VU keeps none of it as an object: each SharedArray read is a deep-frozen copy, and a frozen
 * array of the 48 list queries held ≈ 8 KB in every VU (1.4 MB at 167 VUs). So the lists are elements
 * of their own, read one at a time when a request needs one, and the VU keeps numbers and strings.
 */
export interface VuRun {
  baseUrl: string;
  /** ms (a number: k6 parses a duration string on every request) */
  requestTimeoutMs: number;
  /** the operations mix as cumulative shares (operation-picker.ts) */
  opCuts: OperationCuts;
  /**
   * Per load scenario ("s3_free"): its step, and where its plan's load keys sit in the run's SharedArray.
   * Looked up by name: a VU that called a string method on the name would instantiate String's
   * prototype in its runtime (≈ 3.6 KB per VU).
   */
  scenarios: Record<string, SharedRange & { step: number }>;
  /** One period of the list requests' queries (load/capacity/requests.ts), from the contract's bounds. */
  listQueries: SharedRange;
  petStatuses: SharedRange;
}

/** What only the first init (k6's options) and the summary read (SharedArray element 1). */
export interface RunSetup {
  doc: CapacityDocument;
  /** Absolute, checked at init; undefined: the result line goes to stdout only. */
  reportDir: string | undefined;
  options: RunOptions;
}

function envKeys(): PlanKey[] {
  return __ENV.KEYS_FILE ? parseKeysFile(open(__ENV.KEYS_FILE), __ENV.KEYS_FILE, __ENV) : parseKeysEnv(__ENV);
}

/** petcert's document (the plan it built), or the same built here from the environment (plain k6 run). */
function wholeDocument(): { whole: CapacityDocument; reportDir: string | undefined } {
  // REPORT_DIR is checked at init: k6 cannot create folders, and a summary it cannot write still exits 0.
  const target = readTarget();
  const fromPetcert = __ENV.CAPACITY_RUN ? readDocument(open(__ENV.CAPACITY_RUN), 'CAPACITY_RUN') : undefined;
  const whole = fromPetcert ?? documentFromEnv(__ENV, target.baseUrl, target.plans, envKeys());
  return { whole, reportDir: target.reportDir };
}

/**
 * The first init's work, one SharedArray: what every VU reads, what the options and the summary read,
 * then the list queries, the pet statuses and the load keys, one element each.
 */
function sharedRun(): Array<VuRun | RunSetup | string> {
  const { whole, reportDir } = wholeDocument();
  const doc = withoutLoadKeys(whole);
  const options = runOptions(whole);
  const elements: string[] = [];
  const FIRST = 2; // after the two documents
  const append = (list: readonly string[]): SharedRange => {
    const range = { start: FIRST + elements.length, count: list.length };
    elements.push(...list);
    return range;
  };
  const queries = append(listQueries(LIMIT.max, PET_STATUSES));
  const statuses = append(PET_STATUSES);
  const keyRanges: Record<string, SharedRange> = {};
  for (const [plan, planKeys] of Object.entries(whole.plan.load)) keyRanges[plan] = append(planKeys);
  const scenarios: VuRun['scenarios'] = {};
  for (const step of stepsOf(whole)) {
    for (const plan of Object.keys(step.perPlan)) {
      scenarios[scenarioName(step.index, plan)] = { step: step.index, ...(keyRanges[plan] ?? { start: 0, count: 0 }) };
    }
  }
  const vu: VuRun = {
    baseUrl: doc.baseUrl,
    requestTimeoutMs: doc.requestTimeoutMs,
    opCuts: operationCuts(doc.settings.ops),
    scenarios,
    listQueries: queries,
    petStatuses: statuses,
  };
  return [vu, { doc, reportDir, options }, ...elements];
}

/** What the __VU 0 runtimes export (the first init's, setup's, the summary's); a load VU exports none of it. */
export interface VuZeroExports {
  options: Options;
  /**
   * Refuses what would silently change the load: k6 v2.1+ replaces the scenarios on `--vus N` (the
   * steps would vanish); a segment without a shared sequence overlaps the runners' iteration numbers.
   */
  setup: () => void;
  handleSummary: (data: K6SummaryInput) => Record<string, string>;
}

/** The client certificate the target may ask for, read at init from the paths petcert gave (never their contents). */
function tlsAuthOf(tls: DocumentTls | undefined): Pick<Options, 'tlsAuth'> {
  if (tls === undefined) return {};
  return { tlsAuth: [{ domains: tls.domains, cert: open(tls.certFile), key: open(tls.keyFile) }] };
}

/** k6's options (the run's, and what holds for every run), setup and the summary, for __VU 0 runtimes. */
function vuZero(run: RunSetup, k6: typeof exec): VuZeroExports {
  const options: Options = {
    ...run.options,
    thresholds: { ...run.options.thresholds, ...NO_SILENT_PASS },
    discardResponseBodies: true,
    // Never follow a redirect: the target is the API, not wherever it points.
    maxRedirects: 0,
    ...tlsAuthOf(run.doc.tls),
  };
  const setup = (): void => {
    const running = k6.test.options;
    const problem =
      replacedScenarios(Object.keys(run.options.scenarios), Object.keys(running.scenarios ?? {})) ??
      unsharedSequence(running.executionSegment, running.executionSegmentSequence);
    if (problem !== undefined) k6.test.abort(problem);
  };
  const handleSummary = (data: K6SummaryInput) => summaryFiles(run.doc, run.reportDir, runnerSegment(k6), data);
  return { options, setup, handleSummary };
}

/**
 * This runner's execution segment ("" = the whole test) and sequence, from one read of k6's options
 * (each read marshals and parses the whole options); k6 does not tell the init context.
 */
function runnerSegment(k6: typeof exec): RunnerSegment {
  const options = k6.test.options;
  return { segment: options.executionSegment ?? '', sequence: options.executionSegmentSequence ?? null };
}

/** What a canary's VU lends its iteration here (this module imports no k6 module). */
export interface CanaryK6 {
  http: typeof http;
  exec: typeof exec;
}

/** One request of a canary's key, tagged `name: canary`. */
function canaryRequest(k6: CanaryK6, doc: CapacityDocument, key: string) {
  const params = {
    headers: { authorization: `Bearer ${key}` },
    timeout: doc.requestTimeoutMs,
    tags: { name: 'canary' },
  };
  return k6.http.asyncRequest('GET', `${doc.baseUrl}/pets?limit=1`, null, params);
}

/**
 * One canary key past its quota, at the rate its plan chose (canary-plan.ts: ≥ 1.5 × its quota within
 * one window, whatever the window's phase), in small concurrent batches, until a few requests after
 * its first 429, its budget, or the end of its time in the step. In the canary's VU only: the load VUs
 * never evaluate this module.
 */
async function canaryIteration(setup: RunSetup, k6: CanaryK6): Promise<void> {
  try {
    await canaryRun(setup, k6);
  } catch (error) {
    k6.exec.test.abort(iterationThrew('capacity canary', error));
  }
}

async function canaryRun(setup: RunSetup, k6: CanaryK6): Promise<void> {
  const canaries = keysForSegment(setup.doc.plan.canaries, runnerSegment(k6.exec).segment);
  // Which of this runner's canaries this VU drives.
  const c: Canary | undefined = canaries[k6.exec.scenario.iterationInInstance];
  if (c === undefined) return;
  const batch = Math.max(1, Math.min(20, Math.ceil(c.rate / 20)));
  const gapMs = (1000 * batch) / c.rate;
  const deadline = Date.now() + c.seconds * 1000;
  const responses: CanaryResponse[] = [];
  const send = async (): Promise<CanaryResponse> => {
    const res = await canaryRequest(k6, setup.doc, c.key);
    return canaryResponse(res.status, res.headers);
  };
  while (shouldSendMore(responses, c.perMinute) && Date.now() < deadline) {
    const started = Date.now();
    const n = Math.min(batch, canaryBudget(c.perMinute) - responses.length);
    responses.push(...(await Promise.all(Array.from({ length: n }, send))));
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, gapMs - (Date.now() - started))));
  }
  console.log(canaryReport(c, setup.doc.plan.canaryStep, responses));
}

/** The canary's marked line (load/capacity/result.ts). */
function canaryReport(c: Canary, step: number, responses: readonly CanaryResponse[]): string {
  return canaryLine({
    plan: c.plan,
    perMinute: c.perMinute,
    step,
    sent: responses.length,
    windows: canaryWindows(responses),
    missingRetryAfter: responses.filter((r) => !r.retryAfterOk).length,
    transportErrors: responses.filter((r) => r.status === 0).length,
  });
}

/**
 * The cold path's entry points as one export: each export of a lazy module is a forwarding function
 * object in every VU's runtime (scripts/k6-lazy.ts), ≈ 0.7 KB each per VU.
 */
export interface ColdPath {
  sharedRun: typeof sharedRun;
  vuZero: typeof vuZero;
  /** guarded: one that throws aborts the test (load/k6/lib/guards.ts) */
  canaryIteration: typeof canaryIteration;
  iterationThrew: typeof iterationThrew;
}
export const coldPath = (): ColdPath => ({ sharedRun, vuZero, canaryIteration, iterationThrew });
