// k6: will the service hold the planned customer mix? Steps of constant arrival rate (open model) from
// 25 % up to MAX_FACTOR × the mix's planned rate, one scenario per step and plan, every key at ≤ 90 %
// of its quota (load/capacity/plan.ts). During the planned-rate step a canary key per plan is driven
// past its quota. Each runner prints its per-step figures as one marked JSON line on stdout
// (load/capacity/result.ts), which `petcert capacity` and `petcert capacity merge` judge.
//
//   k6 run -e BASE_URL=http://127.0.0.1:8080/v1 -e KEYS_FILE=/abs/keys.txt load/dist/capacity.js
//
// `petcert capacity` hands each k6 process one document, CAPACITY_RUN=/private/run.json (the plan it
// built; load/capacity/document.ts). Without it (plain k6 run, k6-operator runners) the same is built
// from: BASE_URL (loopback default), KEYS_FILE (PLAN=KEY lines; absolute path) or KEYS=plan=key,…,
// PLANS_FILE, and the settings of load/capacity/settings.ts (MIX, UTILISATION, OPS, STEP_SECONDS,
// STEPS, MAX_FACTOR, SCALE_TO_KEYS, SLO, CANARIES); STEP=i runs step i only; MAX_VUS,
// REQUEST_TIMEOUT_MS. Without MIX every key is one customer and the load is scaled to the keys.
// REPORT_DIR (absolute, existing): the result line is also written there.
import exec from 'k6/execution';
import { check } from 'k6';
import { SharedArray } from 'k6/data';
import http from 'k6/http';
import { setTimeout } from 'k6/timers';
import { Counter } from 'k6/metrics';
import type { Options, Scenario } from 'k6/options';
import { lowerCaseHeaders } from '../../core/exchange.ts';
import { parseHeaderInt, parseRetryAfter } from '../../spec/ratelimit.ts';
import { RATE_LIMIT_HEADERS } from '../../spec/contract.ts';
import { canaryBudget, canaryWindows, shouldSendMore, type CanaryResponse } from '../capacity/canary.ts';
import { parseKeysFile, type PlanKey } from '../capacity/keys-file.ts';
import { operationPicker } from '../capacity/mix.ts';
import { CANARY_START, type Canary } from '../capacity/canary-plan.ts';
import { canaryLine, resultLine, RESULT_VERSION, type RunnerResult, type RunnerStep } from '../capacity/result.ts';
import { runInfo } from '../capacity/run-info.ts';
import { reportedPercentiles, trendStat } from '../capacity/slo.ts';
import { listQuery, newPetBody } from '../capacity/requests.ts';
import { maxVUsOf, preAllocatedVUs } from '../capacity/vus.ts';
import { parseKeysEnv } from '../shared/keys.ts';
import { bucketCheck, bucketOf, histogramFromChecks } from '../shared/histogram.ts';
import { keysForSegment, parseSegment, segmentRange } from '../shared/segment.ts';
import { readK6Summary, type K6SummaryInput, type MetricValues } from '../shared/summary.ts';
import { readTarget } from './lib/config.ts';
import { documentFromEnv, readDocument, withoutLoadKeys, type CapacityDocument } from '../capacity/document.ts';
import { guarded, NO_SILENT_PASS, refuseReplacedScenarios } from './lib/guards.ts';

// REPORT_DIR is checked at init: k6 cannot create folders, and a summary it cannot write still exits 0.
const target = readTarget();
const REPORT_DIR = target.reportDir;
/** petcert's document (the plan it built), or the same built here from the environment (plain k6 run). */
let whole: CapacityDocument | undefined;
function wholeDocument(): CapacityDocument {
  return (whole ??= __ENV.CAPACITY_RUN ? readDocument(open(__ENV.CAPACITY_RUN), 'CAPACITY_RUN') : documentFromEnv(__ENV, target.baseUrl, target.plans, envKeys()));
}
// Read, and the plan built, once per test run: a SharedArray's callback runs in the first init only.
// Every VU gets the document without its load keys; the keys stay in one SharedArray per plan, and an
// iteration reads the one key it sends with (10,000 keys × 1,000 VUs would otherwise be 10 million).
const doc: CapacityDocument = new SharedArray('petcert capacity run', () => [withoutLoadKeys(wholeDocument())])[0] as CapacityDocument;
const loadKeys = new Map(Object.keys(doc.plan.load).map((p) => [p, new SharedArray(`petcert keys ${p}`, () => wholeDocument().plan.load[p] ?? [])]));
const { baseUrl: BASE_URL, settings, plan } = doc;
const steps = plan.steps.filter((s) => doc.step === null || s.index === doc.step);
const first = steps[0]!.index;
const stepMs = Math.round(settings.stepSeconds * 1000);
const MAX_VUS = doc.maxVus;
/** Request timeout in ms (a number: k6 parses a duration string on every request). */
const TIMEOUT = doc.requestTimeoutMs;
const pickOperation = operationPicker(settings.ops);

// Per-step counters of rare events, as metrics of their own: a sub-metric (a tag filter) costs every
// sample of its parent metric a match, and only http_req_duration{step:i} needs one (its percentiles).
const counters = (name: string): Map<number, Counter> => new Map(steps.map((s) => [s.index, new Counter(`${name}_s${s.index}`)]));
const failedBy = counters('failed');
const below429By = counters('below_quota_429');
const unexpected4xxBy = counters('unexpected_4xx');
// Each step's latency histogram (load/shared/histogram.ts), mergeable across runners, counted by k6 as
// one always-true check per step and bucket; the check maps are built once per VU and bucket.
const ALWAYS = (): boolean => true;
const bucketChecks = new Map<string, Record<string, () => boolean>>();
function countLatency(step: number, ms: number): void {
  const bucket = bucketOf(ms);
  const id = `${step} ${bucket}`;
  let c = bucketChecks.get(id);
  if (c === undefined) bucketChecks.set(id, (c = { [bucketCheck(step, bucket)]: ALWAYS }));
  check(null, c);
}

function envKeys(): PlanKey[] {
  return __ENV.KEYS_FILE ? parseKeysFile(open(__ENV.KEYS_FILE), __ENV.KEYS_FILE, __ENV) : parseKeysEnv(__ENV);
}

/** This runner's execution segment ("" = the whole test); k6 does not tell the init context. */
const segment = (): string => exec.test.options.executionSegment ?? '';

const scenarioName = (step: number, planName: string): string => `s${step}_${planName}`;

function stepScenarios(): Record<string, Scenario> {
  const out: Record<string, Scenario> = {};
  for (const step of steps) {
    for (const [planName, rate] of Object.entries(step.perPlan)) {
      // VUs: load/capacity/vus.ts (pre-allocated for 100 ms of latency, up to 1 s).
      out[scenarioName(step.index, planName)] = {
        executor: 'constant-arrival-rate', rate: Math.max(1, Math.round(rate * 60)), timeUnit: '1m',
        duration: `${stepMs}ms`, startTime: `${(step.index - first) * stepMs}ms`, gracefulStop: '3s',
        preAllocatedVUs: preAllocatedVUs(rate, MAX_VUS), maxVUs: maxVUsOf(rate, MAX_VUS),
        tags: { step: String(step.index) },
      };
    }
  }
  const canaryStep = steps.find((s) => s.index === plan.canaryStep);
  if (canaryStep && plan.canaries.length > 0) {
    // Once the step's load is flowing; done by the step's end.
    out.canary = { executor: 'per-vu-iterations', exec: 'canary', vus: plan.canaries.length, iterations: 1, startTime: `${(canaryStep.index - first) * stepMs + Math.round(stepMs * CANARY_START)}ms`, maxDuration: `${Math.round(stepMs * (1 - CANARY_START)) + 5000}ms`, tags: { step: `canary${canaryStep.index}` } };
  }
  return out;
}

/**
 * k6 reports a sub-metric only when a threshold names it: each step's latency (the SLO's percentiles,
 * so a plain `k6 run` fails past the knee too) and dropped iterations per scenario (rare samples).
 */
function thresholds(): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const step of steps) {
    const latency = Object.entries(settings.slo.latency).map(([p, ms]) => `${trendStat(p)}<${ms}`);
    out[`http_req_duration{step:${step.index}}`] = latency.length ? latency : ['max>=0'];
    out[`below_quota_429_s${step.index}`] = ['count==0'];
    for (const planName of Object.keys(step.perPlan)) out[`dropped_iterations{scenario:${scenarioName(step.index, planName)}}`] = ['count>=0'];
  }
  return out;
}

const SCENARIOS = stepScenarios();
/** Read at init: in setup() k6 hands `options` back as wrapped Go values. */
const SCENARIO_NAMES = Object.keys(SCENARIOS);

export const options: Options = {
  scenarios: SCENARIOS,
  thresholds: { ...thresholds(), ...NO_SILENT_PASS },
  summaryTrendStats: [...reportedPercentiles(settings.slo).map(trendStat), 'count'],
  discardResponseBodies: true,
  // Never follow a redirect: the target is the API, not wherever it points.
  maxRedirects: 0,
};

// SLO errors are 5xx, transport errors and timeouts; 4xx are counted apart (429 below quota is its own check).
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 499 }));

/** What an iteration needs of its scenario ("s3_free"), worked out once per VU and scenario. */
interface ScenarioContext {
  step: number;
  /** the plan's load keys (shared by every VU) and this runner's part of them: [start, start + count) */
  keys: readonly string[];
  start: number;
  count: number;
  failed: Counter;
  below429: Counter;
  unexpected4xx: Counter;
}
const contexts = new Map<string, ScenarioContext>();
function contextOf(name: string): ScenarioContext {
  let ctx = contexts.get(name);
  if (ctx === undefined) {
    const step = Number(name.slice(1, name.indexOf('_')));
    const keys = loadKeys.get(name.slice(name.indexOf('_') + 1)) ?? [];
    const { start, count } = segmentRange(keys.length, segment());
    contexts.set(name, (ctx = { step, keys, start, count, failed: failedBy.get(step)!, below429: below429By.get(step)!, unexpected4xx: unexpected4xxBy.get(step)! }));
  }
  return ctx;
}

/** Ids this VU created, for `get` (the newest 64). */
const created: number[] = [];
/** get's URL carries an id: one name for all of them keeps k6's series bounded (list URLs are few). */
const GET_TAGS = { name: 'get' } as const;
const JSON_TYPE = 'application/json';

// The hot path of the generator (the default function: k6 looks a named exec up on every iteration):
// one exec.scenario read (k6 builds that object on every access), few request params to parse.
function request(op: string, i: number, key: string) {
  const authorization = `Bearer ${key}`;
  if (op === 'create') return http.asyncRequest('POST', `${BASE_URL}/pets`, newPetBody(i, __VU), { headers: { authorization, 'content-type': JSON_TYPE }, timeout: TIMEOUT, responseType: 'text' });
  if (op === 'get' && created.length > 0) return http.asyncRequest('GET', `${BASE_URL}/pets/${created[i % created.length]}`, null, { headers: { authorization }, timeout: TIMEOUT, tags: GET_TAGS });
  return http.asyncRequest('GET', `${BASE_URL}/pets${listQuery(i)}`, null, { headers: { authorization }, timeout: TIMEOUT });
}

/**
 * exec.scenario builds a new object of live getters on every access (a fifth of the generator's CPU
 * at its limit); one per VU is enough while its getters stay live. They are checked: a VU's
 * iterationInInstance must grow within a scenario, else every read goes back to exec.scenario.
 */
let cachedScenario: typeof exec.scenario | undefined;
let liveGetters = true;
let lastName = '';
let lastIteration = -1;
/** The scenario's name and this iteration's number in it (across this instance). */
function scenarioNow(): { name: string; iteration: number } {
  const scenario = liveGetters ? (cachedScenario ??= exec.scenario) : exec.scenario;
  const name = scenario.name;
  const iteration = scenario.iterationInInstance;
  if (liveGetters && name === lastName && iteration <= lastIteration) {
    liveGetters = false;
    return scenarioNow();
  }
  lastName = name;
  lastIteration = iteration;
  return { name, iteration };
}

/** k6 v2.1+ replaces the scenarios on `--vus N`: the steps would silently vanish. */
export function setup(): void {
  refuseReplacedScenarios(SCENARIO_NAMES);
}

async function loadIteration(): Promise<void> {
  const { name, iteration: i } = scenarioNow();
  const ctx = contextOf(name);
  if (ctx.count === 0) return; // more runners than keys of this plan: plan.ts refuses that, but never divide by 0
  const op = pickOperation(i);
  const res = await request(op, i, ctx.keys[ctx.start + (i % ctx.count)]!);
  const status = res.status; // one read: each property of a k6 response is a call into Go
  countLatency(ctx.step, res.timings.duration);
  // SLO errors: 5xx, transport errors and timeouts (status 0).
  if (status === 0 || status >= 500) ctx.failed.add(1);
  else if (status === 429) ctx.below429.add(1);
  else if (status >= 400) ctx.unexpected4xx.add(1);
  if (op === 'create' && status === 201) rememberId(res.body);
}

function rememberId(body: unknown): void {
  const id = typeof body === 'string' ? /"id"\s*:\s*(\d{1,15})\b/.exec(body)?.[1] : undefined;
  if (id === undefined) return;
  created.push(Number(id));
  if (created.length > 64) created.shift();
}

async function canaryRequest(key: string): Promise<CanaryResponse> {
  const res = await http.asyncRequest('GET', `${BASE_URL}/pets?limit=1`, null, { headers: { authorization: `Bearer ${key}` }, timeout: TIMEOUT, tags: { name: 'canary' } });
  const headers = lowerCaseHeaders(res.headers);
  const reset = parseHeaderInt(headers[RATE_LIMIT_HEADERS.reset]);
  return { status: res.status, reset: reset ?? NaN, retryAfterOk: res.status !== 429 || parseRetryAfter(headers).ok };
}

/**
 * One canary key past its quota, at the rate its plan chose (canary-plan.ts: ≥ 1.5 × its quota within
 * one window, whatever the window's phase), in small concurrent batches, until a few requests after
 * its first 429, its budget, or the end of its time in the step.
 */
async function canaryIteration(): Promise<void> {
  const c: Canary | undefined = keysForSegment(plan.canaries, segment())[exec.scenario.iterationInInstance];
  if (c === undefined) return;
  const batch = Math.max(1, Math.min(20, Math.ceil(c.rate / 20)));
  const gapMs = (1000 * batch) / c.rate;
  const deadline = Date.now() + c.seconds * 1000;
  const responses: CanaryResponse[] = [];
  while (shouldSendMore(responses, c.perMinute) && Date.now() < deadline) {
    const started = Date.now();
    const n = Math.min(batch, canaryBudget(c.perMinute) - responses.length);
    responses.push(...(await Promise.all(Array.from({ length: n }, () => canaryRequest(c.key)))));
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, gapMs - (Date.now() - started))));
  }
  console.log(canaryLine({
    plan: c.plan, perMinute: c.perMinute, step: plan.canaryStep, sent: responses.length, windows: canaryWindows(responses),
    missingRetryAfter: responses.filter((r) => !r.retryAfterOk).length, transportErrors: responses.filter((r) => r.status === 0).length,
  }));
}

// An iteration that throws is only logged by k6 (exit 0): guarded() aborts the test instead.
export const load = guarded('capacity', loadIteration);
export const canary = guarded('capacity canary', canaryIteration);
export default load;

/** Both summary shapes (legacy, --new-machine-readable-summary) read as metric name → values. */
function runnerStep(m: Record<string, MetricValues>, checks: ReadonlyArray<{ name: string; passes: number }>, index: number, offeredRate: number, perPlan: Record<string, number>, share: number): RunnerStep {
  const latency = m[`http_req_duration{step:${index}}`] ?? {};
  const count = (name: string) => m[`${name}_s${index}`]?.count ?? 0;
  const percentilesMs: Record<string, number> = {};
  for (const p of reportedPercentiles(settings.slo)) {
    const v = latency[trendStat(p)];
    if (typeof v === 'number') percentilesMs[p] = v;
  }
  const dropped = Object.keys(perPlan).reduce((sum, planName) => sum + (m[`dropped_iterations{scenario:${scenarioName(index, planName)}}`]?.count ?? 0), 0);
  return {
    index, offeredRate, share, seconds: settings.stepSeconds,
    requests: latency.count ?? 0, failed: count('failed'), dropped,
    below429: count('below_quota_429'), unexpected4xx: count('unexpected_4xx'), percentilesMs,
    histogram: histogramFromChecks(checks, index),
  };
}

export function handleSummary(data: K6SummaryInput): Record<string, string> {
  const span = parseSegment(segment());
  const { metrics, checks } = readK6Summary(data);
  const steps_ = steps.map((s) => runnerStep(metrics, checks, s.index, s.offeredRate, s.perPlan, span.to - span.from));
  const result: RunnerResult = { tool: 'petcert-capacity', version: RESULT_VERSION, run: runInfo(BASE_URL, settings, plan), segment: segment() || '0:1', steps: steps_, canaries: [] };
  const line = `${resultLine(result)}\n`;
  return REPORT_DIR === undefined ? { stdout: line } : { stdout: line, [`${REPORT_DIR}/k6-capacity.json`]: line };
}
