// The k6 modules the scripts import, shimmed over the reference server called in-process on a
// virtual clock: `k6`, `k6/http`, `k6/execution`, `k6/metrics`, `k6/timers`. They keep k6's context
// rules that matter to these scripts (metrics declared and files opened only at init; no requests,
// checks or samples at init; no VU or scenario information at init), and fail loudly on what they do
// not offer (synchronous http.request and sleep: a k6 VU blocks, a Node event loop cannot).
import { readFileSync } from 'node:fs';
import type { Handle } from '../../../reference/index.ts';
import type { FakeClock } from '../fake-clock.ts';
import { addSample, recordCheck, type MetricType, type Recorder } from './recorder.ts';
import type { K6Globals } from './sandbox.ts';

export interface VuState {
  phase: 'init' | 'run';
  vu: number;
  iteration: number;
  scenario: { name: string; executor: string; iterationInInstance: number; iterationInTest: number; startTime: number };
  /** Consolidated options as exec.test.options shows them (executionSegment among them). */
  testOptions: Record<string, unknown>;
}

export interface ShimTarget {
  handle: Handle;
  clock: FakeClock;
  /** Scheme, host and port the in-process server answers for (any other URL is unreachable). */
  origin: string;
}

/** Go's textproto.CanonicalMIMEHeaderKey: k6 reports header names this way (x-ratelimit-limit → X-Ratelimit-Limit). */
export const canonicalHeader = (name: string) => name.toLowerCase().replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());

function inInit(state: VuState, what: string): void {
  if (state.phase === 'init') throw new Error(`${what} is not supported in the init context`);
}

function timers(clock: FakeClock) {
  const live = new Set<number>();
  let next = 1;
  const setTimeout = (cb: (...a: unknown[]) => void, ms = 0, ...args: unknown[]): number => {
    const id = next++;
    live.add(id);
    void clock.sleep(Number(ms) || 0).then(() => live.delete(id) && cb(...args));
    return id;
  };
  const clearTimeout = (id: number): void => void live.delete(id);
  const setInterval = (cb: (...a: unknown[]) => void, ms = 0, ...args: unknown[]): number => {
    const id = next++;
    live.add(id);
    const tick = (): void => void clock.sleep(Math.max(1, Number(ms) || 0)).then(() => live.has(id) && (cb(...args), tick()));
    tick();
    return id;
  };
  return { setTimeout, clearTimeout, setInterval, clearInterval: clearTimeout };
}

type Callback = { statuses: Array<number | { min: number; max: number }> } | null;
const expected = (cb: Callback, status: number) =>
  cb === null ? true : cb.statuses.some((s) => (typeof s === 'number' ? s === status : status >= s.min && status <= s.max));

function httpModule(target: ShimTarget, state: VuState, rec: Recorder) {
  let responseCallback: Callback = { statuses: [{ min: 200, max: 399 }] };
  const asyncRequest = async (method: string, url: string, body?: string | null, params: { headers?: Record<string, string>; responseType?: string } = {}) => {
    inInit(state, 'making HTTP requests');
    const headers = Object.fromEntries(Object.entries(params.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));
    const started = target.clock.now();
    let status = 0;
    let resHeaders: Record<string, string> = {};
    let resBody = '';
    let error = '';
    if (url.startsWith(`${target.origin}/`)) {
      const res = await target.clock.busy(() => target.handle({ method, path: url.slice(target.origin.length), headers, body: body ?? '' }));
      status = res.status;
      resHeaders = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [canonicalHeader(k), v]));
      resBody = res.body;
    } else error = `dial tcp: ${url} is not the in-process target`;
    const duration = target.clock.now() - started;
    rec.requests.push({ method, url, authorization: headers.authorization, status });
    addSample(rec, 'http_reqs', 1);
    addSample(rec, 'http_req_duration', duration);
    addSample(rec, 'http_req_failed', expected(responseCallback, status) ? 0 : 1);
    const out = params.responseType === 'none' ? null : resBody;
    return { status, headers: resHeaders, body: out, error, error_code: status === 0 ? 1000 : 0, url, timings: { duration } };
  };
  const unsupported = (name: string) => () => {
    throw new Error(`http.${name} (synchronous) is not offered by the sandbox shim: use http.asyncRequest`);
  };
  return {
    asyncRequest,
    request: unsupported('request'),
    get: unsupported('get'),
    post: unsupported('post'),
    expectedStatuses: (...statuses: Array<number | { min: number; max: number }>) => ({ statuses }),
    setResponseCallback: (cb: Callback) => void (responseCallback = cb),
  };
}

function metricsModule(state: VuState, rec: Recorder) {
  const metric = (type: MetricType) =>
    class {
      readonly name: string;
      constructor(name: string) {
        if (state.phase !== 'init') throw new Error(`metric ${name}: custom metrics must be declared in the init context`);
        if (rec.types.has(name) && rec.types.get(name) !== type) throw new Error(`metric ${name} redefined with another type`);
        rec.types.set(name, type);
        this.name = name;
      }
      add(value: number | boolean): void {
        inInit(state, 'adding samples');
        addSample(rec, this.name, Number(value));
      }
    };
  return { Counter: metric('counter'), Trend: metric('trend'), Rate: metric('rate'), Gauge: metric('gauge') };
}

function executionModule(state: VuState) {
  const run = <T>(what: string, get: () => T) => () => (inInit(state, `getting ${what} information`), get());
  const obj = {};
  const props: Record<string, () => unknown> = {
    vu: run('VU', () => ({ idInTest: state.vu, idInInstance: state.vu, iterationInInstance: state.iteration, iterationInScenario: state.iteration, tags: {}, metrics: { tags: {}, metadata: {} } })),
    scenario: run('scenario', () => ({ ...state.scenario })),
    instance: run('instance', () => ({ vusActive: 1, vusInitialized: 1, iterationsCompleted: state.iteration, iterationsInterrupted: 0, currentTestRunDuration: 0 })),
    test: run('test', () => ({ options: JSON.parse(JSON.stringify(state.testOptions)), abort: (msg?: string) => { throw new Error(`test aborted: ${msg ?? ''}`); } })),
  };
  for (const [k, get] of Object.entries(props)) Object.defineProperty(obj, k, { get, enumerable: true });
  return obj;
}

function k6Module(state: VuState, rec: Recorder) {
  return {
    check(value: unknown, sets: Record<string, unknown>): boolean {
      inInit(state, 'check()');
      let all = true;
      for (const [name, fn] of Object.entries(sets)) {
        const ok = Boolean(typeof fn === 'function' ? fn(value) : fn);
        recordCheck(rec, name, ok);
        all &&= ok;
      }
      return all;
    },
    group: <T>(_name: string, fn: () => T): T => fn(),
    fail(message = ''): never {
      throw new Error(message);
    },
    sleep(): never {
      throw new Error('sleep() (synchronous) is not offered by the sandbox shim: use setTimeout');
    },
  };
}

/** An ES module namespace as esbuild's CommonJS interop reads it (getters stay getters: k6/execution's are lazy). */
const esModule = (obj: object) => Object.defineProperties({ __esModule: true, default: obj }, Object.getOwnPropertyDescriptors(obj));

/** The module table (for `require`) and the k6 globals of one VU runtime. */
export function k6Runtime(target: ShimTarget, state: VuState, rec: Recorder, env: Record<string, string>) {
  const t = timers(target.clock);
  const log = (level: string) => (...args: unknown[]) => void rec.logs.push({ level, text: args.map(String).join(' ') });
  const modules: Record<string, unknown> = {
    k6: esModule(k6Module(state, rec)),
    'k6/http': esModule(httpModule(target, state, rec)),
    'k6/execution': esModule(executionModule(state)),
    'k6/metrics': esModule(metricsModule(state, rec)),
    'k6/timers': esModule(t),
  };
  const globals: K6Globals = {
    __ENV: env,
    open(path: string) {
      if (state.phase !== 'init') throw new Error('open() can only be called from the init context');
      if (!path.startsWith('/')) throw new Error(`open(${path}): the shim resolves no relative paths; give an absolute one`);
      return readFileSync(path, 'utf8');
    },
    console: { log: log('info'), info: log('info'), warn: log('warn'), error: log('error'), debug: log('debug') },
    ...t,
    vu: () => state.vu,
    iter: () => state.iteration,
  };
  const require = (specifier: string): unknown => {
    if (!(specifier in modules)) throw new Error(`module ${specifier} is not offered by the sandbox shim`);
    return modules[specifier];
  };
  return { require, globals };
}
