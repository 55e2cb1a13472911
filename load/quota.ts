// `runQuota`: the probe core under Node, over the one undici transport (its layers: probes/send.ts),
// refusing quota-exhausting probes on production unless allowed. Returns a Report (kind "quota").
import { parseBaseUrl } from '../core/base-url.ts';
import { systemClock, type Clock } from '../core/clock.ts';
import { checkApiKey } from '../core/api-key.ts';
import { ConfigError, UnreachableError } from '../core/errors.ts';
import type { Send } from '../core/exchange.ts';
import { refuseProduction } from '../spec/production.ts';
import { silentProgress, type ProgressSink } from '../core/progress.ts';
import { VERSION } from '../core/version.ts';
import { createNodeTransport, DEFAULT_SEND_OPTIONS } from '../http/undici-send.ts';
import type { Report } from '../report/model.ts';
import { resolvePlan, type PlanTable } from '../spec/plans.ts';
import { PROBE_NAMES, type ProbeName } from './probes/checks.ts';
import { createContext } from './probes/context.ts';
import { readingOf } from './probes/reading.ts';
import { overAdmitted } from '../report/over-admitted.ts';
import type { Answer } from './probes/remaining-ceiling.ts';
import { quotaBound, type Bound } from './probes/bounds.ts';
import { labels, runProbes } from './probes/run.ts';
import { createRecorder, deltas, eventCounter, tapedClock } from './journal/record.ts';
import type { Journal } from './journal/format.ts';
import { JOURNAL_FORMAT, JOURNAL_VERSION } from './journal/format.ts';
import { WaitCapped } from './probes/bounds.ts';
import { stopLayer, stoppableClock } from '../core/stop.ts';

export interface QuotaOptions {
  /** Ends in /v1. */
  baseUrl: string;
  keys: Array<{ plan: string; key: string }>;
  plans: PlanTable;
  only?: ProbeName[];
  allowProduction?: boolean;
  /** The config marks this target production. */
  production?: boolean;
  send?: Send;
  clock?: Clock;
  progress?: ProgressSink;
  timeoutMs?: number;
  /** Longest single wait (--max-wait); default and ceiling: the longest window plus slack. */
  maxWaitMs?: number;
  /** Fired on SIGINT/SIGTERM: every probe is cut short (its open checks not judged), the report says INTERRUPTED. */
  signal?: AbortSignal;
  /** Requests already sent with a key (API key → count), e.g. by identifying the target: the day quota counts them. */
  spentBefore?: Record<string, number>;
  /** The answers to those requests (API key → answers): where their headers place them, Remaining is judged against them. */
  answersBefore?: Record<string, Answer[]>;
  /** Given the run's journal (every exchange, keys as labels) once it ends, however it ends. */
  journal?: (journal: Journal) => void;
}

const INTERRUPTED = 'the run was interrupted (SIGINT/SIGTERM) before this probe finished';

function validate(options: QuotaOptions): { only: ProbeName[]; baseUrl: string } {
  const baseUrl = parseBaseUrl(options.baseUrl, '--base-url');
  if (options.keys.length === 0) throw new ConfigError('give at least one --key PLAN=KEY', 'key');
  for (const { key, plan } of options.keys) checkApiKey(key, 'key', `the key for plan "${plan}"`);
  const only = options.only ?? PROBE_NAMES;
  for (const p of only)
    if (!PROBE_NAMES.includes(p))
      throw new ConfigError(`unknown probe "${p}" (known: ${PROBE_NAMES.join(', ')})`, 'only');
  if (only.length === 0) throw new ConfigError('no probe selected', 'only');
  refuseProduction(baseUrl, options, 'quota probes spend real quota');
  return { only, baseUrl };
}

/** The run's worst-case duration (load/probes/bounds.ts), from its plans and flags. */
export function quotaBoundOf(
  options: Pick<QuotaOptions, 'keys' | 'plans' | 'only' | 'maxWaitMs' | 'timeoutMs'>,
): Bound {
  return quotaBound({
    windows: options.plans.windows,
    plans: options.keys.map((k) => resolvePlan(options.plans, k.plan)),
    only: options.only ?? PROBE_NAMES,
    maxWaitMs: options.maxWaitMs,
    timeoutMs: options.timeoutMs ?? DEFAULT_SEND_OPTIONS.timeoutMs,
  });
}

export async function runQuota(options: QuotaOptions): Promise<Report> {
  const { only, baseUrl } = validate(options);
  if (options.maxWaitMs !== undefined && !(options.maxWaitMs >= 1000))
    throw new ConfigError(`must be at least 1 s, got ${options.maxWaitMs} ms`, '--max-wait');
  const keys = options.keys.map((k) => ({ key: k.key, plan: resolvePlan(options.plans, k.plan) }));
  const transport = options.send
    ? undefined
    : createNodeTransport(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs });
  // An interrupt cuts every probe short as the run's bound does (core/stop.ts).
  const stop = options.signal && { signal: options.signal, refuse: () => new WaitCapped(INTERRUPTED) };
  const base = options.clock ?? systemClock;
  // Recorded, the probes' readings of the clock are taped; the recorder's own are not (a replay makes none).
  const events = eventCounter();
  let startMs = Number.NaN;
  const tape = options.journal && tapedClock(base, events, () => startMs);
  const probeClock = tape ? tape.clock : base;
  const clock = stop ? stoppableClock(probeClock, stop) : probeClock;
  const labelled = labels(keys);
  const recorder =
    options.journal &&
    createRecorder({
      clock: base,
      events,
      baseUrl,
      labels: new Map(keys.map((k, i) => [k.key, labelled[i]!] as const)),
    });
  const bare = options.send ?? transport!.send;
  const send = recorder ? recorder.layer(bare) : bare;
  startMs = clock.now();
  const startedAt = new Date(startMs).toISOString();
  // The bound covers a request timeout past the deadline: the last request may be in flight when it passes.
  const bound = quotaBoundOf({ ...options, only });
  const ctx = createContext({
    send: stop ? stopLayer(stop)(send) : send,
    clock,
    baseUrl,
    windows: options.plans.windows,
    progress: options.progress ?? silentProgress,
    maxWaitMs: options.maxWaitMs,
    declared: options.plans.limiterModel,
    spentBefore: options.spentBefore,
    answersBefore: options.answersBefore,
    deadline: startMs + bound.totalMs - (options.timeoutMs ?? DEFAULT_SEND_OPTIONS.timeoutMs),
  });
  const report: Report = {
    tool: 'petcert',
    version: VERSION,
    kind: 'quota',
    target: baseUrl,
    startedAt,
    finishedAt: startedAt,
    seed: null,
    requests: 0,
    checks: [],
    series: ctx.series,
    subjects: ctx.subjects,
    reading: readingOf(options.plans.limiterModel),
  };
  try {
    const results = await runProbes(
      ctx,
      keys,
      only,
      keys.map((k) => k.key),
    );
    report.checks = results.checks;
  } catch (error) {
    if (!(error instanceof UnreachableError)) throw error;
    report.aborted = { code: 'UNREACHABLE', message: error.message };
  } finally {
    await transport?.close();
    if (recorder)
      options.journal!({
        header: {
          format: JOURNAL_FORMAT,
          version: JOURNAL_VERSION,
          petcert: VERSION,
          baseUrl,
          plans: options.plans,
          keys: keys.map((k, i) => ({ label: labelled[i]!, plan: k.plan.name })),
          only,
          ...(options.maxWaitMs !== undefined ? { maxWaitMs: options.maxWaitMs } : {}),
          ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
          startMs,
          ...(ctx.deadline !== undefined ? { deadline: ctx.deadline } : {}),
          before: Object.fromEntries(
            keys.map((k, i) => [
              labelled[i]!,
              { spent: options.spentBefore?.[k.key] ?? 0, answers: options.answersBefore?.[k.key] ?? [] },
            ]),
          ),
          requestsBefore: 0,
          clockReads: deltas(tape!.reads(), startMs),
          clockSleeps: tape!.sleeps(),
          ...(options.signal?.aborted
            ? { interrupted: options.signal.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT' }
            : {}),
        },
        entries: recorder.entries(),
      });
  }
  if (options.signal?.aborted)
    report.aborted = { code: 'INTERRUPTED', message: `${INTERRUPTED}: checks not reached were not judged` };
  report.overAdmitted = overAdmitted(ctx.series, ctx.subjects, options.plans);
  report.requests = ctx.requests();
  report.finishedAt = new Date(clock.now()).toISOString();
  return report;
}
