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
// REQUEST_TIMEOUT_MS; CLIENT_CERT_FILE and CLIENT_KEY_FILE (absolute paths): the client certificate.
// Without MIX every key is one customer and the load is scaled to the keys.
// REPORT_DIR (absolute, existing): the result line is also written there.
import exec from 'k6/execution';
import { check } from 'k6';
import { SharedArray } from 'k6/data';
import http from 'k6/http';
import { operationOf } from '../capacity/operation-picker.ts';
import { newPetBody } from '../capacity/requests.ts';
import { eventCheck, eventPasses, noAnswerCheck, type StepEvent } from '../capacity/step-events.ts';
import { bucketCheck, bucketOf } from '../shared/histogram.ts';
import { coldPath, type RunSetup, type SharedRange, type VuRun } from './lib/capacity-cold.lazy.ts';

// Read, and the plan built, once per test run: a SharedArray's callback runs in the first init only,
// and the cold path (lib/capacity-cold.lazy.ts: the document, the plan building, the contract, the
// options, the canaries) is evaluated there, never in a load VU: k6 evaluates a script's top level in
// every VU, and each function, class, k6 module and custom metric it creates is an object in every
// VU's runtime (README.md, 10,000 keys: what a load VU holds is what this file declares).
// One SharedArray (each costs every VU a wrapper): element 0 is what an iteration needs, element 1 the
// options', the summary's and the canaries' part, then the list queries, the pet statuses and the
// load keys, each read alone when a request needs it (10,000 keys × 1,000 VUs would otherwise be 10
// million).
const shared = new SharedArray('petcert capacity run', () => coldPath().sharedRun());
// Only numbers and strings are kept of element 0 (lib/capacity-cold.lazy.ts, VuRun: a kept SharedArray
// object is a deep-frozen copy in every VU); the scenarios are read again when a VU first meets one.
const {
  baseUrl: BASE_URL,
  // ms (a number: k6 parses a duration string on every request)
  requestTimeoutMs: TIMEOUT,
  opCuts: { list: LIST_CUT, get: GET_CUT },
  listQueries: { start: QUERIES_START, count: QUERIES_COUNT },
  petStatuses: { start: STATUSES_START, count: STATUSES_COUNT },
} = shared[0] as VuRun;
const OP_CUTS = { list: LIST_CUT, get: GET_CUT };

// Each step's latency histogram (load/shared/histogram.ts), mergeable across runners, and its rare
// events (capacity/step-events.ts) are counted by k6 as checks named for the step. The check's object
// is built per request, not kept: kept per VU and bucket, 167 VUs held 10 MB of them at 1,500 req/s.
// k6 takes a check's value as it is unless it is a function (v1.8.1 and v2.2.0 alike): no function to
// call per request, none to hold per VU (@types/k6 types functions only: the same function, typed so).
const countCheck = check as unknown as (value: null, sets: Record<string, boolean>) => boolean;
function countLatency(step: number, ms: number): void {
  countCheck(null, { [bucketCheck(step, bucketOf(ms))]: true });
}
function countEvent(event: StepEvent, step: number): void {
  countCheck(null, { [eventCheck(event, step)]: eventPasses(event) });
}

/**
 * k6 reads a script's options in the first init and runs setup and handleSummary in runtimes of their
 * own, all __VU 0; it copies the whole consolidated options into every VU's exported `options` unless
 * it is undefined. So a load VU exports none of them, and holds none of their functions (each function
 * object costs every VU ≈ 0.7 KB, README.md, 10,000 keys): the cold path builds them in __VU 0 only.
 */
const vuZero = __VU === 0 ? coldPath().vuZero(shared[1] as RunSetup, exec) : undefined;
export const options = vuZero?.options;
export const setup = vuZero?.setup;
export const handleSummary = vuZero?.handleSummary;

// SLO errors are 5xx, transport errors and timeouts; 4xx are counted apart (429 below quota is its own check).
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 499 }));

/**
 * What an iteration needs of its scenario ("s3_free"): its step and where its plan's load keys sit in
 * `shared`, [start, start + count), read once per VU and scenario. No execution segment: a runner
 * picks keys by the test-wide iteration number (scenarioNow), so N runners together send each key
 * exactly what one process would, and a load VU never reads k6's options (exec.test.options is the
 * whole consolidated options, marshalled and parsed in every VU that reads it: ≈ 7 MB of peak RSS and
 * late VUs at 3,500 req/s, load/capacity/README.md).
 */
type ScenarioContext = SharedRange & { step: number };
const contexts: Record<string, ScenarioContext> = {};
function contextOf(name: string): ScenarioContext {
  let ctx = contexts[name];
  if (ctx === undefined)
    contexts[name] = ctx = (shared[0] as VuRun).scenarios[name] ?? { step: -1, start: 0, count: 0 };
  return ctx;
}

/** Ids this VU created, for `get` (the newest 64). */
const created: number[] = [];
/** get's URL carries an id: one name for all of them keeps k6's series bounded (list URLs are few). */
const GET_TAGS = { name: 'get' } as const;
const JSON_TYPE = 'application/json';

// The hot path of the generator (the default function: k6 looks a named exec up on every iteration):
// two live getters of the scenario read, few request params to parse.
function request(op: string, i: number, key: string) {
  const authorization = `Bearer ${key}`;
  if (op === 'create') {
    const body = newPetBody(i, __VU, shared[STATUSES_START + (i % STATUSES_COUNT)] as string);
    const headers = { authorization, 'content-type': JSON_TYPE };
    return http.asyncRequest('POST', `${BASE_URL}/pets`, body, { headers, timeout: TIMEOUT, responseType: 'text' });
  }
  if (op === 'get' && created.length > 0) {
    const url = `${BASE_URL}/pets/${created[i % created.length]}`;
    return http.asyncRequest('GET', url, null, { headers: { authorization }, timeout: TIMEOUT, tags: GET_TAGS });
  }
  const query = shared[QUERIES_START + (i % QUERIES_COUNT)] as string;
  return http.asyncRequest('GET', `${BASE_URL}/pets${query}`, null, { headers: { authorization }, timeout: TIMEOUT });
}

/**
 * exec.scenario builds a new object of six live getters on every access (a fifth of the generator's CPU
 * at its limit); kept whole, it held ≈ 5 KB in every VU. A VU keeps the two getters it reads: k6's
 * getters read the VU's state, never `this` (v1.8.1 and v2.2.0). They are checked: a VU's
 * iterationInTest must grow within a scenario, else every read goes back to exec.scenario.
 */
let nameGetter: (() => string) | undefined;
let iterationGetter: (() => number) | undefined;
let liveGetters = true;
let lastName = '';
let lastIteration = -1;
/**
 * The scenario's name and this iteration's number in it, unique across all runners given the same
 * --execution-segment-sequence (setup refuses a segment without one: lib/capacity-cold.lazy.ts).
 */
function scenarioNow(): { name: string; iteration: number } {
  if (!liveGetters) return { name: exec.scenario.name, iteration: exec.scenario.iterationInTest };
  if (nameGetter === undefined || iterationGetter === undefined) {
    const scenario = exec.scenario;
    nameGetter = Object.getOwnPropertyDescriptor(scenario, 'name')?.get;
    iterationGetter = Object.getOwnPropertyDescriptor(scenario, 'iterationInTest')?.get;
    if (nameGetter === undefined || iterationGetter === undefined) liveGetters = false;
    return scenarioNow();
  }
  const name = nameGetter();
  const iteration = iterationGetter();
  if (name === lastName && iteration <= lastIteration) {
    liveGetters = false;
    return scenarioNow();
  }
  lastName = name;
  lastIteration = iteration;
  return { name, iteration };
}

/**
 * One load request. An iteration that throws is only logged by k6 (exit 0): it aborts the test instead,
 * as lib/guards.ts's guarded() does, written in place (guarded's two functions would be objects in every
 * VU) with the cold path's message (evaluated only then).
 */
export async function load(): Promise<void> {
  try {
    const { name, iteration: i } = scenarioNow();
    const ctx = contextOf(name);
    if (ctx.count === 0) return; // a plan without load keys: plan.ts refuses that, but never divide by 0
    const op = operationOf(i, OP_CUTS);
    const res = await request(op, i, shared[ctx.start + (i % ctx.count)] as string);
    const status = res.status; // one read: each property of a k6 response is a call into Go
    countLatency(ctx.step, res.timings.duration);
    // SLO errors: 5xx, transport errors and timeouts (status 0); the latter also by k6's error text,
    // so that petcert can tell a network that never reached the service from a service that failed.
    if (status === 0 || status >= 500) countEvent('failed', ctx.step);
    if (status === 0) countCheck(null, { [noAnswerCheck(ctx.step, res.error)]: true });
    else if (status === 429) countEvent('below429', ctx.step);
    else if (status >= 400) countEvent('unexpected4xx', ctx.step);
    if (op === 'create' && status === 201) rememberId(res.body);
  } catch (error) {
    exec.test.abort(coldPath().iterationThrew('capacity', error));
  }
}

function rememberId(body: unknown): void {
  const id = typeof body === 'string' ? /"id"\s*:\s*(\d{1,15})\b/.exec(body)?.[1] : undefined;
  if (id === undefined) return;
  created.push(Number(id));
  if (created.length > 64) created.shift();
}

/** A canary key past its quota: the cold path's (guarded) canaryIteration, evaluated in the canaries' VUs only. */
export const canary = () => coldPath().canaryIteration(shared[1] as RunSetup, { http, exec });
export default load;
