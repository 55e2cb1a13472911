// The day probe's fast path. When the day 429 arrives, this key's own samples (every probe records
// them, in server time) tell how many requests the ending day window held. Each sample is placed by
// the server's own evidence: its Date-derived time (± slack) narrowed by the window its X-RateLimit-Reset
// names (a minute window of 1 s places a sample exactly, even one sent at the very start of the day).
// If the window held exactly the plan's figure, the day quota is proven without waiting for a fresh
// day; if it held less (someone else used the key today) or a sample cannot be placed on either side
// of the day's start, the slow path counts a whole fresh day: our ambiguity never becomes a verdict.
// Pure: `settleByTally` over what the day probe saw when the day refused (`TallyInput`), which the
// engine asks to know whether to count a fresh day, and the day rules ask again for their verdicts.
import { fewest } from '../../../core/extent.ts';
import { verdict, type Verdict } from '../../../report/check.ts';
import type { Sample } from '../../../report/model.ts';
import type { Plan, Windows } from '../../../spec/plans.ts';
import type { ProbeScope } from '../context.ts';
import { failure, silent } from '../findings.ts';
import { retryAfterAccurate, retryAfterPresent } from '../judge.ts';
import { quotaOf, resetEndMs, type Observation } from '../observe.ts';
import { DATE_SLACK_MS as SLACK_MS, RESET_ROUNDING_MS } from '../../../spec/ratelimit.ts';
import { overWindowText, readingFor } from '../reading.ts';

export interface DayTally {
  admitted: number;
  /** 429s before the final one. */
  rejected: number;
  ambiguous: boolean;
  /**
   * Of `rejected`, those answered once the final 429 was sent (at that instant too: a wave's answers may all
   * come in one millisecond): in flight beside it (the wave that spent the day), the server may have counted
   * them after it as well as before. One answered earlier was not.
   */
  racing: number;
  /** Requests sent before the probes (identifying the target) that fell in this window: its first sample is in it. */
  before: number;
  /** Server ms from the first admitted answer placed in the window to the last. */
  spanMs: number;
}

/**
 * Server-ms interval [lo, hi) in which the server counted a sample: its time ± slack, narrowed to the
 * window its Reset ends when that window overlaps (a Reset that contradicts the Date is not trusted).
 */
export function countedWithin(s: Sample, plan: Pick<Plan, 'perMinute' | 'perDay'>, windows: Windows): [number, number] {
  const lo = s.t - SLACK_MS;
  const hi = s.t + SLACK_MS;
  const quota = quotaOf(s.limit, plan);
  if (s.reset === undefined || quota === 'unknown' || plan.perMinute === plan.perDay) return [lo, hi];
  const end = s.reset * 1000;
  const start = end - (quota === 'minute' ? windows.minuteSeconds : windows.daySeconds) * 1000;
  return start < hi && end > lo ? [Math.max(lo, start), Math.min(hi, end)] : [lo, hi];
}

export type Placement = 'in' | 'out' | 'ambiguous';

/** Where [lo, hi) falls against the day window [startMs, endMs), whose bounds are known to ± uncertainMs. */
export function place([lo, hi]: [number, number], startMs: number, endMs: number, uncertainMs: number): Placement {
  if (lo >= startMs + uncertainMs && hi <= endMs - uncertainMs) return 'in';
  if (hi <= startMs - uncertainMs || lo >= endMs + uncertainMs) return 'out';
  return 'ambiguous';
}

/**
 * A sample reporting the day quota says which day window counted it: the final 429's (in), or one that
 * ended by the time that one began (out: a fixed day, aligned or opened by a first request, never
 * overlaps the next). Undefined when it does not report the day quota, or the day's end is not a Reset.
 */
function placedByOwnReset(
  s: Sample,
  plan: Pick<Plan, 'perMinute' | 'perDay'>,
  daySeconds: number,
  finalReset: number | undefined,
): Placement | undefined {
  if (
    finalReset === undefined ||
    s.reset === undefined ||
    quotaOf(s.limit, plan) !== 'day' ||
    plan.perMinute === plan.perDay
  )
    return undefined;
  if (s.reset === finalReset) return 'in';
  return s.reset <= finalReset - daySeconds ? 'out' : undefined;
}

/**
 * A 429 reporting the day quota with nothing left was answered once the day was spent: beside the final
 * one (a wave's other requests), it is no request counted before the day ran out, even by a limiter that
 * counts its 429s (quota.rejected.consume). Counted, it made 17 admitted + 7 refused before the day's 429
 * look like 25 of a plan of 24 (a correct server failed quota.day.exact when the count went out in waves).
 */
const refusedOnSpentDay = (s: Sample, plan: Pick<Plan, 'perMinute' | 'perDay'>): boolean =>
  plan.perMinute !== plan.perDay && quotaOf(s.limit, plan) === 'day' && s.remaining === 0;

/**
 * `uncertainMs`: how far the day's bounds may be from `startMs`/`endMs`: 0 when they are a day-quota Reset
 * of aligned windows (exact), a second for a whole-second Reset of a window opened at any instant (it is
 * rounded up), else the Retry-After slack.
 */
export function tallyDay(
  run: TallyInput,
  startMs: number,
  endMs: number,
  final: Observation,
  uncertainMs = 0,
): DayTally {
  const finalSample = final.sample;
  const { samples } = run;
  const tally: DayTally = { admitted: 0, rejected: 0, ambiguous: false, racing: 0, before: 0, spanMs: 0 };
  const refusedAt: number[] = [];
  const admittedAt: number[] = [];
  const finalSentMs = final.serverMs - (final.receivedLocal - final.sentLocal);
  let earliest: { t: number; where: Placement } | undefined;
  const finalReset = final.quota === 'day' ? final.rate?.reset : undefined;
  for (const s of samples) {
    if (s === finalSample) continue;
    if (s.t > final.serverMs + SLACK_MS) tally.ambiguous = true; // sent after the final 429: cannot be
    const where =
      placedByOwnReset(s, run.k.plan, run.ctx.windows.daySeconds, finalReset) ??
      place(countedWithin(s, run.k.plan, run.ctx.windows), startMs, endMs, uncertainMs);
    if (where === 'ambiguous') tally.ambiguous = true;
    if (earliest === undefined || s.t < earliest.t) earliest = { t: s.t, where };
    if (where !== 'in') continue;
    if (s.status === 429 && !refusedOnSpentDay(s, run.k.plan)) refusedAt.push(s.t);
    else if (s.status >= 200 && s.status < 300) admittedAt.push(s.t);
  }
  tally.admitted = admittedAt.length;
  tally.spanMs = admittedAt.length === 0 ? 0 : Math.max(...admittedAt) - Math.min(...admittedAt);
  tally.rejected = refusedAt.length;
  tally.racing = refusedAt.filter((t) => t >= finalSentMs).length;
  if (earliest?.where !== 'out') tally.before = run.before;
  return tally;
}

/**
 * A day Reset on the windows' origin (the epoch unless the plan table says) is the exact end of an aligned
 * day; any other may be a window opened at any instant, its Reset rounded up (express-rate-limit) or a
 * second late (slowapi): RESET_ROUNDING_MS.
 */
function roundedReset(run: ProbeScope, endMs: number): boolean {
  const dayMs = run.ctx.windows.daySeconds * 1000;
  return (endMs - (run.ctx.windows.originMs ?? 0)) % dayMs !== 0;
}

/** What the day probe saw when the day refused: this key's samples then, and what it spent before the probes. */
export interface TallyInput extends ProbeScope {
  samples: readonly Sample[];
  before: number;
  /** The day's end (server ms) and its 429. */
  endMs: number;
  final: Observation;
  /** The minute probe did not run or could not tell the model. */
  modelUnknown: boolean;
  /** What would tell the model (models/unknown.ts modelFix): running the minute probe, or answers that show it. */
  modelFix: string;
}

/** The tally's verdict: more than the day allows (`over`), or a count judged with its bounds. */
export type Settled = { over: number; spanMs: number } | { tally: DayTally; consumes: boolean; exactly: boolean };

/**
 * Whether the tally decides the day quota (undefined: take the slow path, a fresh day counted).
 * `modelUnknown`: a day that is a bucket refilling perDay a day admits up to twice perDay in one window.
 */
export function settleByTally(input: TallyInput): Settled | undefined {
  const { endMs, final } = input;
  const { perDay } = input.k.plan;
  const dayMs = input.ctx.windows.daySeconds * 1000;
  const exact = final.quota === 'day' && resetEndMs(input, final) === endMs;
  const rounded = exact && roundedReset(input, endMs);
  const t = tallyDay(input, endMs - dayMs, endMs, final, exact ? (rounded ? RESET_ROUNDING_MS : 0) : SLACK_MS);
  // Requests sent before the probes (answers unseen) may have been counted, or not: either count passes,
  // one between them cannot be told from over-admission (the slow path counts a day without them).
  const withBefore = t.admitted + t.before;
  if (t.ambiguous || withBefore + Math.max(0, t.rejected) < perDay)
    return t.admitted > perDay ? { over: t.admitted, spanMs: t.spanMs } : undefined;
  const consumes = withBefore < perDay && withBefore + t.rejected === perDay;
  if (t.admitted < perDay && withBefore > perDay) return undefined;
  // A limiter counting its 429s, whose last refusals raced the day's 429: which of them it counted first
  // the answers do not tell; the slow path counts a fresh day, its last requests one at a time (day.ts).
  if (
    t.racing > 0 &&
    withBefore < perDay &&
    withBefore + t.rejected !== perDay &&
    withBefore + t.rejected - t.racing <= perDay
  )
    return undefined;
  const exactly = t.admitted === perDay || withBefore === perDay || consumes;
  return !exactly && t.admitted > perDay ? { over: t.admitted, spanMs: t.spanMs } : { tally: t, consumes, exactly };
}

/** The tally's dayExact verdict. */
export function tallyExact(input: TallyInput, s: Settled): Verdict {
  if ('over' in s) return overDay(input, s.over, s.spanMs);
  if (s.exactly) return verdict.pass;
  const { perDay } = input.k.plan;
  return failure(
    `${s.tally.admitted} requests admitted in one day window before the day 429; the plan allows ${perDay}`,
    { exchange: input.final.ex, expected: perDay, received: s.tally.admitted },
  );
}

/** The day's end came from this 429, so only the bounds are independent: past this minute, within a day. */
export function tallyRetryAfter({ final, endMs, ctx }: TallyInput): Verdict[] {
  const dayS = ctx.windows.daySeconds;
  if ((final.quota === 'day' && final.rate) || !final.retryAfter)
    return [retryAfterPresent(final), ...retryAfterAccurate(final, endMs, ctx.windows.daySeconds)];
  const s = final.retryAfter.seconds;
  if (s >= 1 && s <= dayS + SLACK_MS / 1000) return [verdict.pass];
  return [
    failure(`the day quota's Retry-After is ${final.retryAfter.raw} (${s} s): not within one day window of ${dayS} s`, {
      exchange: final.ex,
      expected: `1..${dayS}`,
      received: s,
    }),
  ];
}

/** Whether 429s count against the day (OBSERVE), when any fell in the day window. */
export function tallyConsume(input: TallyInput, s: Settled): Verdict {
  if ('over' in s) {
    const why =
      `the day window admitted ${s.over} requests, more than the plan's ${input.k.plan.perDay}: no day window kept its quota to show whether its ` +
      `429s count`;
    return verdict.unjudged(why, "a day quota that refuses past the plan's day figure (quota.day.exact judges it)");
  }
  const t = s.tally;
  if (t.rejected === 0)
    return verdict.unjudged(
      'no 429 fell in this day window before the day quota ran out',
      'a minute quota that refuses the request past its figure (quota.minute.exact judges it)',
    );
  return verdict.observed({ consumesDayQuota: s.consumes, admittedInDay: t.admitted, rejectedInDay: t.rejected });
}

/**
 * More than perDay in one day window, the limiter's model unknown, and a token bucket declared (reading.ts):
 * a day refilled continuously admits up to twice perDay in one window, so up to that it is unjudged, never
 * failed (undefined past it, and under the window reading, which allows perDay in any day's length).
 */
export function refillMayExplain(
  scope: ProbeScope,
  admitted: number,
  modelUnknown: boolean,
  fix: string,
): Verdict | undefined {
  const { perDay } = scope.k.plan;
  if (!modelUnknown || scope.ctx.declared === undefined || admitted > 2 * perDay) return undefined;
  const refilled = `a day quota refilled continuously (a token bucket) admits up to ${2 * perDay} in one window`;
  const why = `${admitted} requests admitted in one day window (the plan allows ${perDay}), and the limiter's model is unknown: ${refilled}`;
  return verdict.unjudged(why, fix);
}

/** What more than perDay in one day window proves, under the run's reading. */
function overDayText(scope: ProbeScope, admitted: number, spanMs: number | undefined, modelUnknown: boolean): string {
  const { perDay } = scope.k.plan;
  const { daySeconds } = scope.ctx.windows;
  const plan = `the plan allows ${perDay}`;
  if (scope.ctx.declared !== undefined || !modelUnknown)
    return `${admitted} requests admitted in one day window; ${plan}; ${readingFor(scope.ctx.declared, perDay)}`;
  return `${spanMs === undefined ? `${admitted} admitted in one ${daySeconds} s day` : overWindowText(admitted, spanMs, perDay, daySeconds, 'day')}; ${plan}`;
}

/** More than perDay in one day window: over-admission, unless a declared bucket's refill may explain it. */
function overDay(input: TallyInput, admitted: number, spanMs: number): Verdict {
  const { perDay } = input.k.plan;
  return (
    refillMayExplain(input, admitted, input.modelUnknown, input.modelFix) ??
    failure(overDayText(input, admitted, spanMs, input.modelUnknown), {
      exchange: input.final.ex,
      expected: perDay,
      received: admitted,
    })
  );
}

/**
 * §8.2 in any order: when every admitted answer of the refused day window reports the day
 * quota, the fewest Remaining among them is the last one the server counted; above 0, one more request
 * fitted, and the 429 says otherwise. Concurrent answers cannot hide it: a request that took that last
 * place would have answered Remaining 0.
 */
export function tallyLastRemaining({ final, samples: all, ctx, k }: TallyInput): readonly Verdict[] {
  if (final.quota !== 'day' || !final.rate) return silent;
  const startMs = (final.rate.reset - ctx.windows.daySeconds) * 1000;
  const reset = final.rate.reset;
  const ofThisDay = (s: Sample): boolean => s.limit === k.plan.perDay && s.reset === reset;
  const samples = all.filter((s) => s.status < 300);
  const during = samples.filter((s) => s.t >= startMs + SLACK_MS && s.t <= final.serverMs);
  if (during.length === 0 || !during.every(ofThisDay)) return silent;
  // Every answer of this window, also those of the final 429's wave that came back after it.
  const least = fewest(samples.filter(ofThisDay).map((s) => s.remaining!));
  if (least <= 0) return silent;
  return [
    failure(
      `the day window ending ${final.rate.reset} was refused while its answers reported at least Remaining ${least} (every admitted answer reports the day ` +
        `quota)`,
      { exchange: final.ex, expected: 0, received: least },
    ),
  ];
}
