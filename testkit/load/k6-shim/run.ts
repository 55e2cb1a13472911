// One k6 test run of a built bundle in the sobek-like sandbox, in k6's lifecycle order: an init pass
// that yields `options`; a fresh VU runtime (init again) running each scenario's exec function a
// bounded number of times; a fresh runtime for handleSummary. Runtimes share nothing but the recorded
// metrics, as k6 VUs share nothing. The server is the reference app in-process on a virtual clock
// (its own clock skewed from the scripts', so a script trusting its clock over Date would show).
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { createApp, type Handle, type ReferenceOptions } from '../../../reference/index.ts';
import { createFakeClock } from '../fake-clock.ts';
import { FAKE_START_MS } from '../in-process.ts';
import { k6Runtime, type ShimTarget, type VuState } from './modules.ts';
import { createRecorder, summaryData, type Recorder } from './recorder.ts';
import { bundleToCommonJs, createSobekLikeContext, evaluateModule } from './sandbox.ts';

export const SHIM_ORIGIN = 'http://127.0.0.1:1';

export interface ShimRunOptions {
  bundle: string;
  env: Record<string, string>;
  reference?: ReferenceOptions;
  /** Response-level faults: wraps the reference app's handle. */
  wrap?: (handle: Handle) => Handle;
  /** Iterations per scenario at most (arrival-rate executors are paced at their rate on the virtual clock). */
  maxIterations?: number;
  /** exec.test.options.executionSegment of this runner. */
  executionSegment?: string;
  /** Wall-clock bound of the whole run. */
  timeoutMs?: number;
}

export interface ShimRunResult {
  options: Record<string, unknown>;
  recorder: Recorder;
  summary: Record<string, unknown>;
  /** Errors thrown by an iteration (k6 logs them and goes on; here they are collected). */
  iterationErrors: string[];
  virtualMs: number;
}

type Scenario = { executor: string; exec?: string; vus?: number; iterations?: number; rate?: number; timeUnit?: string; maxDuration?: string; duration?: string };

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/;
export function durationMs(text: string | undefined, fallback: number): number {
  const m = text === undefined ? null : DURATION.exec(text);
  if (!m) return fallback;
  return Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 'ms' | 's' | 'm' | 'h'];
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: still running after ${ms} ms`)), ms)));
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

export async function runInShim(o: ShimRunOptions): Promise<ShimRunResult> {
  const cjs = await bundleToCommonJs(readFileSync(o.bundle, 'utf8'), basename(o.bundle));
  const clock = createFakeClock(FAKE_START_MS);
  const skew = 37 * 60_000 + 321;
  const app = createApp({ ...o.reference, now: () => clock.now() + skew, log: () => {} });
  const target: ShimTarget = { handle: o.wrap ? o.wrap(app.handle) : app.handle, clock, origin: SHIM_ORIGIN };
  const rec = createRecorder();
  const scenarioOf = (name: string, executor: string) => ({ name, executor, iterationInInstance: 0, iterationInTest: 0, startTime: clock.now() });
  const runtime = (vu: number, testOptions: Record<string, unknown>) => {
    const state: VuState = { phase: 'init', vu, iteration: 0, scenario: scenarioOf('', ''), testOptions };
    const { require, globals } = k6Runtime(target, state, rec, o.env);
    const exports = evaluateModule(createSobekLikeContext(globals, () => clock.now()), cjs, o.bundle, require);
    state.phase = 'run';
    return { state, exports };
  };

  const started = clock.now();
  const first = runtime(0, {});
  const options = first.exports.options as Record<string, unknown>;
  const testOptions = { ...JSON.parse(JSON.stringify(options ?? {})), executionSegment: o.executionSegment ?? '' };
  const iterationErrors: string[] = [];
  const run = async (): Promise<void> => {
    const vu = runtime(1, testOptions);
    const data = typeof vu.exports.setup === 'function' ? await (vu.exports.setup as () => unknown)() : undefined;
    for (const [name, sc] of Object.entries((options?.scenarios ?? { default: { executor: 'per-vu-iterations', iterations: 1 } }) as Record<string, Scenario>)) {
      const fn = vu.exports[sc.exec ?? 'default'];
      if (typeof fn !== 'function') throw new Error(`scenario ${name}: exec function ${sc.exec ?? 'default'} is not exported`);
      const planned = sc.executor === 'per-vu-iterations' ? (sc.vus ?? 1) * (sc.iterations ?? 1) : Number.POSITIVE_INFINITY;
      const n = Math.min(planned, o.maxIterations ?? 20);
      const interval = sc.rate ? durationMs(sc.timeUnit ?? '1s', 1000) / sc.rate : 0;
      vu.state.scenario = scenarioOf(name, sc.executor);
      for (let i = 0; i < n; i++) {
        const due = vu.state.scenario.startTime + i * interval;
        if (clock.now() < due) await clock.sleep(due - clock.now());
        Object.assign(vu.state, { iteration: i, scenario: { ...vu.state.scenario, iterationInInstance: i, iterationInTest: i } });
        try {
          await withTimeout(Promise.resolve((fn as (d: unknown) => unknown)(data)), o.timeoutMs ?? 20_000, `${name} iteration ${i}`);
        } catch (error) {
          iterationErrors.push(error instanceof Error || (error as Error)?.message ? `${(error as Error).name}: ${(error as Error).message}` : String(error));
        }
      }
    }
    if (typeof vu.exports.teardown === 'function') await (vu.exports.teardown as (d: unknown) => unknown)(data);
  };
  await run();
  const virtualMs = clock.now() - started;
  const summaryRuntime = runtime(0, testOptions);
  const handleSummary = summaryRuntime.exports.handleSummary as ((d: unknown) => Record<string, unknown>) | undefined;
  const data = summaryData(rec, (options?.thresholds ?? {}) as never, virtualMs);
  // handleSummary gets a plain JSON copy, as k6 passes it (no functions, no shared references).
  const summary = handleSummary ? handleSummary(JSON.parse(JSON.stringify(data))) : {};
  return { options, recorder: rec, summary, iterationErrors, virtualMs };
}
