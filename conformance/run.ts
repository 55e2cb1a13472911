// `runConform`: the conformance suite as a function (the CLI and `petcert certify` call it). Returns a
// Report even when the target is dead (aborted UNREACHABLE) or keeps answering 429 (RATE_LIMITED);
// throws only ConfigError, for options that make no sense.
import { parseBaseUrl } from '../core/base-url.ts';
import { systemClock, type Clock } from '../core/clock.ts';
import { checkApiKey } from '../core/api-key.ts';
import { AbortRunError, ConfigError } from '../core/errors.ts';
import { stopLayer, stoppableClock } from '../core/stop.ts';
import type { Send } from '../core/exchange.ts';
import { silentProgress, type ProgressSink } from '../core/progress.ts';
import { VERSION } from '../core/version.ts';
import { DEFAULT_SEND_OPTIONS, createNodeTransport } from '../http/undici-send.ts';
import type { Report } from '../report/model.ts';
import { resolvePlan, specPlanTable, SPEC_WINDOWS, type Plan, type PlanTable } from '../spec/plans.ts';
import { selectCases, type CoverageCase } from './coverage/cases.ts';
import { reportId } from './json.ts';
import { CHECKS, scenarioChecks } from './registry.ts';
import { checkResults } from './report.ts';
import { budgetCovering, DEFAULT_BUDGET, minBudget } from './runner/budget.ts';
import { newRunSeed } from './runner/seed.ts';
import { runSuite } from './runner/suite.ts';
import { CONFORM_TRIES } from './runner/transport.ts';

export interface ConformOptions {
  /** May carry a path prefix; must end in /v1. */
  baseUrl: string;
  apiKey: string;
  seed?: number;
  /** Requests of the whole run, retries included (see runner/budget.ts for how it is shared). */
  budget?: number;
  /** Use only this category id for valid pets (servers that know only some categories). */
  categoryId?: number;
  failOn?: 'must' | 'should';
  send?: Send;
  /** Per request. */
  timeoutMs?: number;
  /** Whole run. */
  runTimeoutMs?: number;
  progress?: ProgressSink;
  clock?: Clock;
  /** Most fast-check runs per scenario check (default 100); tests use a few. */
  maxRuns?: number;
  /** Scenario checks running at once (default 4). */
  concurrency?: number;
  /** Longest window of the target in seconds, the ceiling for X-RateLimit-Reset - Date (default: the spec's day). */
  maxWindowSeconds?: number;
  /** Responses 429 tolerated before the run stops (default 20). */
  max429?: number;
  /** First backoff step after a 429 without a usable Retry-After, ms (default 1000). */
  backoffBaseMs?: number;
  /** The key's plan (--plan, --key PLAN=KEY, certify's keys): X-RateLimit-Limit is judged against its figures. */
  plan?: string;
  /** Figures and windows (a plans file); default the specification's. Its day is the Reset ceiling unless maxWindowSeconds says otherwise. */
  plans?: PlanTable;
  /** Replay only these coverage cases (--case: exact names, or a prefix ending in *). */
  cases?: readonly string[];
  /** Fired on SIGINT/SIGTERM: nothing more is sent, no wait goes on; the report says INTERRUPTED. */
  signal?: AbortSignal;
}

export const CONFORM_DEFAULTS = {
  budget: DEFAULT_BUDGET,
  maxRuns: 100,
  timeoutMs: DEFAULT_SEND_OPTIONS.timeoutMs,
  runTimeoutMs: 30 * 60_000,
} as const;

/** The least --budget that gives every scenario check a run at the default maxRuns (certify plans with it; help prints it). */
export const coveringBudget = (): number => budgetCovering(scenarioChecks(), CONFORM_DEFAULTS.maxRuns);

/**
 * A conform run's worst case, from its Send stack (runner/transport.ts): nothing is sent past its run
 * timeout, and a request in flight then ends within its own tries' timeouts.
 */
export const conformBoundMs = (o: { runTimeoutMs?: number; timeoutMs?: number } = {}): number =>
  (o.runTimeoutMs ?? CONFORM_DEFAULTS.runTimeoutMs) + CONFORM_TRIES * (o.timeoutMs ?? CONFORM_DEFAULTS.timeoutMs);

function positiveInt(value: number | undefined, field: string, min = 1): void {
  if (value !== undefined && (!Number.isSafeInteger(value) || value < min))
    throw new ConfigError(`must be an integer ≥ ${min}, got ${value}`, field);
}

export function validateOptions(o: ConformOptions): void {
  checkApiKey(o.apiKey, '--api-key');
  if (o.seed !== undefined && (!Number.isSafeInteger(o.seed) || o.seed < -(2 ** 31) || o.seed >= 2 ** 31))
    throw new ConfigError(`must be a 32-bit integer, got ${o.seed}`, '--seed');
  positiveInt(o.budget, '--budget', minBudget());
  if (o.categoryId !== undefined && !Number.isSafeInteger(o.categoryId))
    throw new ConfigError(`must be an integer, got ${o.categoryId}`, '--category-id');
  if (o.failOn !== undefined && o.failOn !== 'must' && o.failOn !== 'should')
    throw new ConfigError(`must be "must" or "should", got ${JSON.stringify(o.failOn)}`, '--fail-on');
  positiveInt(o.timeoutMs, '--timeout');
  positiveInt(o.runTimeoutMs, 'runTimeoutMs');
  positiveInt(o.maxRuns, 'maxRuns');
  positiveInt(o.concurrency, 'concurrency');
  positiveInt(o.maxWindowSeconds, 'maxWindowSeconds');
}

function planOf(o: ConformOptions): Plan | undefined {
  if (o.plan === undefined) return undefined;
  try {
    return resolvePlan(o.plans ?? specPlanTable(), o.plan);
  } catch (error) {
    throw error instanceof ConfigError ? new ConfigError(error.message.replace(/^plan: /, ''), '--plan') : error;
  }
}

function casesOf(o: ConformOptions): readonly CoverageCase[] | undefined {
  if (o.cases === undefined || o.cases.length === 0) return undefined;
  const picked = selectCases(o.cases);
  if (!Array.isArray(picked)) {
    const near = picked.near.length
      ? ` (cases starting alike: ${picked.near.join(', ')})`
      : ' (petcert conform --list-cases lists them)';
    throw new ConfigError(`no coverage case is named ${JSON.stringify(picked.unknown)}${near}`, '--case');
  }
  return picked;
}

export async function runConform(options: ConformOptions): Promise<Report> {
  const baseUrl = parseBaseUrl(options.baseUrl, '--base-url');
  validateOptions(options);
  const plan = planOf(options);
  const only = casesOf(options);
  // An interrupted run ends like a timed-out one (core/stop.ts): the same early stop, its own reason.
  const stop = options.signal && {
    signal: options.signal,
    refuse: () =>
      new AbortRunError('INTERRUPTED', 'the run was interrupted (SIGINT/SIGTERM) before the suite finished'),
  };
  const clock = stop ? stoppableClock(options.clock ?? systemClock, stop) : (options.clock ?? systemClock);
  const seed = options.seed ?? newRunSeed();
  const transport = options.send
    ? undefined
    : createNodeTransport({ timeoutMs: options.timeoutMs ?? CONFORM_DEFAULTS.timeoutMs });
  const startedAt = new Date(clock.now()).toISOString();
  try {
    const result = await runSuite({
      baseUrl,
      apiKey: options.apiKey,
      send: stop ? stopLayer(stop)(options.send ?? transport!.send) : (options.send ?? transport!.send),
      clock,
      seed,
      budget: options.budget ?? CONFORM_DEFAULTS.budget,
      maxRuns: options.maxRuns ?? CONFORM_DEFAULTS.maxRuns,
      ...(options.categoryId !== undefined ? { categoryId: options.categoryId } : {}),
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
      ...(options.max429 !== undefined ? { max429: options.max429 } : {}),
      ...(options.backoffBaseMs !== undefined ? { backoffBaseMs: options.backoffBaseMs } : {}),
      deadline: clock.now() + (options.runTimeoutMs ?? CONFORM_DEFAULTS.runTimeoutMs),
      progress: options.progress ?? silentProgress,
      resetHorizonSeconds: options.maxWindowSeconds ?? options.plans?.windows.daySeconds ?? SPEC_WINDOWS.daySeconds,
      minuteSeconds: options.plans?.windows.minuteSeconds ?? SPEC_WINDOWS.minuteSeconds,
      ...(plan ? { plan } : {}),
      ...(only ? { only } : {}),
    });
    return {
      tool: 'petcert',
      version: VERSION,
      kind: 'conform',
      target: baseUrl,
      startedAt,
      finishedAt: new Date(clock.now()).toISOString(),
      seed,
      requests: result.requests,
      checks: checkResults(CHECKS, result.ledger, [result.ctx.apiKey], result.aborted?.message),
      createdIds: result.ctx.created.map((c) => reportId(c.idText)),
      ...(result.aborted ? { aborted: result.aborted } : {}),
      ...(plan ? { plans: options.plans ?? specPlanTable() } : {}),
    };
  } finally {
    await transport?.close();
  }
}
