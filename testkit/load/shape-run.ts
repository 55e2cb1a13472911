// Runs the quota probes in virtual time against a limiter shape (limiter-shapes.ts): per-request latency
// drawn from a seeded generator (so concurrent answers come back out of order), a skewed server clock.
import { lowerCaseHeaders, type Send } from '../../core/exchange.ts';
import { silentProgress } from '../../core/progress.ts';
import { PROBE_NAMES, type ProbeName } from '../../load/probes/checks.ts';
import { createContext } from '../../load/probes/context.ts';
import { runProbes } from '../../load/probes/run.ts';
import { answerOf, type Answer } from '../../load/probes/remaining-ceiling.ts';
import type { CheckResult, Sample } from '../../report/model.ts';
import { parsePlansFile, resolvePlan, type DeclaredModel } from '../../spec/plans.ts';
import { createFakeClock } from './fake-clock.ts';
import { FAKE_START_MS } from './in-process.ts';
import { createShape, type MeterKind, type ShapeOptions } from './limiter-shapes.ts';
import { logged, type Logged } from './send-log.ts';
import { retryAfterMs } from '../../spec/ratelimit.ts';

export interface RunShape {
  windows: { minuteSeconds: number; daySeconds: number };
  plans: Record<string, { perMinute: number; perDay: number }>;
  shape: Omit<ShapeOptions, 'windows'>;
  /** Each way (there and back), ms: the server decides between them. Drawn per request. */
  latencyMs?: [number, number];
  skewMs?: number;
  /** The server answers one request at a time, each taking this long (ms): its most requests a second. */
  serviceMs?: number;
  seed?: number;
  startMs?: number;
  only?: readonly ProbeName[];
  /** Requests the first key sends before the probes (as identifying the target does), told to them (count and answers) or not. */
  before?: { requests: number; told: boolean };
  /** --max-wait, ms (default: the longest window the plans allow). */
  maxWaitMs?: number;
  /** --limiter-model: the model the vendor declares (load/probes/reading.ts); undefined, the window reading. */
  declared?: DeclaredModel;
}

/** mulberry32: a small seeded generator, so a failing seed can be replayed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface ShapeResult {
  checks: CheckResult[];
  series: Record<string, Sample[]>;
  /** "id: message" of every failed check (any level). */
  failed: string[];
  /** "id: reason" of every MUST check skipped as could-not-judge. */
  unjudged: string[];
  requests: number;
  /** Virtual time the probes took (the requests sent before them aside). */
  elapsedMs: number;
  /** What the transport saw: each request as it left and each answer as it came (send-log.ts). */
  log: Logged[];
}

export async function runShape(o: RunShape): Promise<ShapeResult> {
  const table = parsePlansFile({ windows: o.windows, plans: o.plans });
  const clock = createFakeClock(o.startMs ?? FAKE_START_MS);
  const skew = o.skewMs ?? 0;
  const random = seeded(o.seed ?? 1);
  const handle = createShape(
    { ...o.shape, windows: { minuteMs: o.windows.minuteSeconds * 1000, dayMs: o.windows.daySeconds * 1000 } },
    o.plans,
  );
  const keyPlan = Object.fromEntries(Object.keys(o.plans).map((plan) => [`pc_${plan}_shape_key_aaaaaaaa`, plan]));
  const [lo, hi] = o.latencyMs ?? [0, 0];
  const leg = (): number => lo + random() * (hi - lo);
  let n = 0;
  let serverFreeAt = Number.NEGATIVE_INFINITY;
  const queued = async (): Promise<void> => {
    if (!o.serviceMs) return;
    const start = Math.max(clock.now(), serverFreeAt);
    serverFreeAt = start + o.serviceMs;
    await clock.sleep(serverFreeAt - clock.now());
  };
  const send: Send = async (request) => {
    n++;
    const there = leg();
    const back = leg();
    const sentAt = clock.now();
    if (there) await clock.sleep(there);
    await queued();
    const key = (request.headers['authorization'] ?? '').replace(/^Bearer /, '');
    const plan = keyPlan[key];
    const answer =
      plan === undefined
        ? { status: 401, headers: { date: new Date(clock.now() + skew).toUTCString() }, body: '{}' }
        : await clock.busy(async () => handle(key, o.plans[plan]!, clock.now() + skew));
    if (back) await clock.sleep(back);
    return {
      request,
      response: { status: answer.status, headers: lowerCaseHeaders(answer.headers), body: answer.body },
      sentAt,
      durationMs: clock.now() - sentAt,
    };
  };
  const keys = Object.entries(keyPlan).map(([key, plan]) => ({ key, plan: resolvePlan(table, plan) }));
  const first = keys[0]!.key;
  const url = 'http://127.0.0.1:1/v1/pets';
  const answers: Answer[] = [];
  for (let i = 0; i < (o.before?.requests ?? 0); i++) {
    const { response } = await send({ method: 'GET', url, headers: { authorization: `Bearer ${first}` } });
    answers.push(answerOf(response.status, response.headers));
  }
  const spentBefore = o.before?.told
    ? { spentBefore: { [first]: o.before.requests }, answersBefore: { [first]: answers } }
    : {};
  const log: Logged[] = [];
  const ctx = createContext({
    send: logged(
      send,
      () => clock.now(),
      log,
      (ex) => retryAfterMs(ex.response.headers),
    ),
    clock,
    baseUrl: 'http://127.0.0.1:1/v1',
    windows: table.windows,
    progress: silentProgress,
    maxWaitMs: o.maxWaitMs,
    declared: o.declared,
    ...spentBefore,
  });
  const startedMs = clock.now();
  const r = await runProbes(ctx, keys, o.only ?? PROBE_NAMES, Object.keys(keyPlan));
  return {
    checks: r.checks,
    series: r.series,
    failed: r.checks.filter((c) => c.outcome === 'fail').map((c) => `${c.id}: ${c.failures[0]?.message}`),
    unjudged: r.checks
      .filter((c) => c.level === 'MUST' && c.outcome === 'skip' && c.skipKind !== 'not-applicable')
      .map((c) => `${c.id}: ${c.skipReason}`),
    requests: n,
    elapsedMs: clock.now() - startedMs,
    log,
  };
}

/**
 * The reading the bucket and GCRA shapes are judged under where a test asks what a correct bucket gets:
 * the vendor declares its plans are rates (`--limiter-model token-bucket`). Undeclared, the window reading
 * fails them (load/probes/declared-reading.test.ts).
 */
export const BUCKET_DECLARED: DeclaredModel = 'token-bucket';

/** What a vendor running this shape declares: a bucket or GCRA its rates, any other shape nothing (the window reading). */
export const declaredFor = (shape: { meter: MeterKind }): DeclaredModel | undefined =>
  shape.meter === 'token-bucket' || shape.meter === 'gcra' ? BUCKET_DECLARED : undefined;
