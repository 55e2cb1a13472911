// What every probe gets: the one `send` (the probes' stack of layers), a clock, the server's clock estimate and where samples go.
// Pure: the same probes run under Node (undici) and inside k6 (k6/http).
import type { Clock } from '../../core/clock.ts';
import type { Send } from '../../core/exchange.ts';
import type { ProgressSink } from '../../core/progress.ts';
import type { Sample, SeriesSubject } from '../../report/model.ts';
import type { Plan, Windows } from '../../spec/plans.ts';
import { createServerClock, type ServerClock } from '../../spec/ratelimit.ts';
import type { Findings } from './findings.ts';
import { waitCapMs, WaitCapped } from './bounds.ts';
import { formatBound } from '../../core/duration.ts';
import { counter } from '../../core/count.ts';
import { deadline } from '../../core/deadline.ts';
import { probeSend } from './send.ts';
import type { Answer } from './answer.ts';
import type { Sent } from './observation.ts';
import type { DeclaredModel } from '../../spec/plans.ts';

export interface ProbeContext {
  send: Send;
  clock: Clock;
  /** Ends in /v1. */
  baseUrl: string;
  windows: Windows;
  serverClock: ServerClock;
  progress: ProgressSink;
  /** Probe series name → samples (server ms). */
  series: Record<string, Sample[]>;
  /** Series name → what it is of (probe, plan, key label): read, never parsed from the name. */
  subjects: Record<string, SeriesSubject>;
  /** Longest single wait (bounds.ts): the longest window plus slack, or --max-wait when lower. */
  maxWaitMs: number;
  /** Local ms past which no probe sends or waits (the run's printed bound); none when undefined. */
  deadline?: number;
  /** The model the vendor declared its plans follow (reading.ts); undefined: the specification's window reading. */
  declared?: DeclaredModel;
  /** Requests handed to the transport so far, tries included. */
  requests(): number;
  /** Requests sent with a key (API key → count) before the probes (identifying the target): they count against its day. */
  spentBefore?: Record<string, number>;
  /** The answers among those (API key → answers): their X-RateLimit-* place them in the windows they were counted in. */
  answersBefore?: Record<string, Answer[]>;
}

export interface KeyUnderTest {
  plan: Plan;
  key: string;
}

/** What a pure judge may know of a probe: its windows and its plan; never the send, the key or the ledger. */
export interface ProbeScope {
  ctx: Pick<ProbeContext, 'windows' | 'declared'>;
  k: Pick<KeyUnderTest, 'plan'>;
}

/** The scope of a run, as a value apart from it (a rule's observation must not carry its send or key). */
export const scopeOf = (run: ProbeRun): ProbeScope => ({
  ctx: { windows: run.ctx.windows, declared: run.ctx.declared },
  k: { plan: run.k.plan },
});

/** One key in one probe: where its findings and samples go. */
export interface ProbeRun {
  ctx: ProbeContext;
  k: KeyUnderTest;
  f: Findings;
  /** This probe and key, as a value. */
  subject: SeriesSubject;
  /** Where its samples go in ctx.series: `seriesName(subject)`. */
  seriesName: string;
  /**
   * What this probe's requests brought back, in the order the answers came: collected while it sends, judged
   * by the response rules once it is over (run.ts), never while it sends.
   */
  answers: Sent[];
}

/** The series' name in report.json: "minute:free#2" (the form older reports and readers know). */
export const seriesName = (s: SeriesSubject): string => `${s.probe}:${s.key}`;

type ContextOptions = Omit<ProbeContext, 'serverClock' | 'series' | 'subjects' | 'maxWaitMs' | 'requests'> & {
  serverClock?: ServerClock;
  maxWaitMs?: number | undefined;
};

/** `options.send` is the bare transport: the probes' stack of layers (send.ts) is built here, around it. */
export function createContext(options: ContextOptions): ProbeContext {
  const { clock } = options;
  const startedAt = clock.now();
  // Past the run's bound nothing more is sent: the probe ends and its open checks are skipped.
  const bound = formatBound((options.deadline ?? startedAt) - startedAt);
  const limit = deadline(
    clock,
    options.deadline,
    () => new WaitCapped(`the run reached its worst-case bound (${bound}) before this probe finished`),
  );
  const count = counter();
  const maxWaitMs = waitCapMs(options.windows, options.maxWaitMs);
  return {
    ...options,
    send: probeSend(options.send, { clock, deadline: limit, count, maxWaitMs }),
    requests: count.count,
    serverClock: options.serverClock ?? createServerClock(),
    series: {},
    subjects: {},
    maxWaitMs,
  };
}

/**
 * Every probe wait goes through here: one longer than the cap is not waited (the probe ends, its open
 * checks skipped with `what` as the reason), nor one that would pass the run's bound.
 */
export async function waitFor(ctx: ProbeContext, ms: number, what: string): Promise<void> {
  if (ms <= 0) return;
  const not = notWaited(ctx, ms, what);
  if (not) throw new WaitCapped(not);
  await ctx.clock.sleep(ms);
}

/** Why a wait of `ms` would not be waited (beyond the cap, or past the run's bound); undefined when it would. */
export function notWaited(ctx: ProbeContext, ms: number, what: string): string | undefined {
  if (ms > ctx.maxWaitMs)
    return `not waited: ${what} needs ${formatBound(ms)}, beyond the ${formatBound(ctx.maxWaitMs)} any wait may take`;
  if (ctx.deadline !== undefined && ctx.clock.now() + ms > ctx.deadline)
    return `not waited: ${what} (${formatBound(ms)}) would pass the run's worst-case bound`;
  return undefined;
}

/** Wait margin past a server-time instant: covers the server's own processing and rounding. */
export const MARGIN_MS = 40;

/**
 * Our local ms by which the server's clock has passed `serverMs` (with MARGIN_MS), by its Date headers,
 * never our clock alone: the latest it can be. Undefined before any Date was seen.
 */
export const localPast = (ctx: ProbeContext, serverMs: number): number | undefined =>
  ctx.serverClock.toLocalNotBefore(serverMs + MARGIN_MS);

/** Sleeps until the server's clock has passed `serverMs`. */
export async function sleepUntilServer(
  ctx: ProbeContext,
  serverMs: number,
  what = 'the wait for a window to end',
): Promise<void> {
  await waitFor(ctx, (localPast(ctx, serverMs) ?? ctx.clock.now()) - ctx.clock.now(), what);
}

/** The key's label ("free#2"). */
export const labelOf = (run: ProbeRun): string => run.subject.key;

/** Requests this run's key spent outside the probes' series (`spentBefore`). */
export const spentBefore = (run: ProbeRun): number => run.ctx.spentBefore?.[run.k.key] ?? 0;

/** This run's key's answers sent before the probes (`answersBefore`). */
export const answersBefore = (run: ProbeRun): Answer[] => run.ctx.answersBefore?.[run.k.key] ?? [];

/** Every sample of this run's key, across all its probes. */
export function keySamples(run: ProbeRun): Sample[] {
  const { subjects, series } = run.ctx;
  return Object.keys(series)
    .filter((name) => subjects[name]?.key === run.subject.key)
    .flatMap((name) => series[name]!);
}

export function serverNow(ctx: ProbeContext): number {
  return ctx.serverClock.toServer(ctx.clock.now()) ?? ctx.clock.now();
}
