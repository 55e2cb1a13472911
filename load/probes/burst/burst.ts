// The burst probe: far more simultaneous requests than the limit, at the start of a fresh window, must
// admit exactly the limit, and the Remaining values handed out must be distinct and contiguous.
// `probeBurst` sends and records the burst; BURST_RULES judge it.
import { verdict, type Unjudged, type Verdict } from '../../../report/check.ts';
import { scopeOf, type ProbeRun, type ProbeScope } from '../context.ts';
import { PROBE_CHECKS } from '../checks.ts';
import {
  failure,
  missing,
  notReached,
  rule,
  UNEXPLAINED,
  unreached,
  type Observed,
  type ProbeRule,
} from '../findings.ts';
import type { ModelVerdict } from '../models/minute-count.ts';
import { allowanceFor, refillOver } from '../models/allowance.ts';
import { traitsOf } from '../models/catalog.ts';
import { isFixed, modelFix, shownNotFixed, toldNothing, untold } from '../models/unknown.ts';
import { remainingSetRule } from '../models/rules.ts';
import {
  minuteResets,
  namesOneEnd,
  overWindowText,
  ownEndCrossed,
  readingFor,
  refillCounts,
  resetNoiseMs,
} from '../reading.ts';
import { localSpan, type Observation } from '../observe.ts';
import { DATE_SLACK_MS as SLACK_MS, RESET_ROUNDING_MS } from '../../../spec/ratelimit.ts';
import { observe } from '../request.ts';
import { DAY_OUT_FIX, dayOwned, daySpent, waitOutDay, waitOutDay429, type DayWait } from '../day-out.ts';
import { findFreshWindow, type FreshWindow } from '../window.ts';

/** Requests in one burst: the limit plus as many again (at least 3, at most 100 extra). */
export const burstSize = (perMinute: number): number => perMinute + Math.max(3, Math.min(perMinute, 100));

export interface BurstObservation extends Observed {
  scope: ProbeScope;
  /** The limiter's model the minute probe found for this key (undefined: it did not run). */
  model?: ModelVerdict;
  /**
   * The judged burst: its simultaneous answers, the end (server ms) of the fresh window it was sent in, and
   * whether it still straddled two fixed windows on its last try (a target slow for this window length).
   */
  burst?: { all: Observation[]; endMs: number; straddled?: boolean; stale?: boolean };
  /** The key's day ran out and the run could not wait for its end (day-out.ts): why, and the fix. */
  unwaited?: Unjudged;
}

/** Judged as a fixed window unless the minute probe showed another model. */
const judgedFixed = (model: ModelVerdict | undefined): boolean => !shownNotFixed(model);

const admittedOf = (b: NonNullable<BurstObservation['burst']>): Observation[] => b.all.filter((o) => o.admitted);

/**
 * The model not told: the minute probe did not run (--only burst), or ran and could not tell it (two
 * limiters: its 200s report the day). A GCRA or token bucket refills while the burst is answered, so it may
 * admit a few more and repeat a Remaining value: not a fixed window's fault to fail. Unjudged, never failed;
 * a model shown fixed keeps its verdict.
 */
const untoldWhy = (model: ModelVerdict | undefined): string =>
  model === undefined
    ? "the minute probe, which tells the limiter's model, did not run"
    : "the minute probe could not tell the limiter's model (the headers of its admitted answers report the day quota)";
/** What tells the model: the minute probe when it did not run (--only burst), else answers that show it. */
const untoldFix = (model: ModelVerdict | undefined): string =>
  model === undefined ? 'run the minute probe too (--only minute,burst)' : modelFix(model);

/** Fewer than the limit admitted, with a 429 the day quota owns (day-out.ts dayOwned): the day ran out. */
function dayRanOut(scope: ProbeScope, b: NonNullable<BurstObservation['burst']>): boolean {
  return admittedOf(b).length < scope.k.plan.perMinute && b.all.some((x) => dayOwned(scope, x));
}

/** Local ms from the burst's first send to its last answer. */
const spanOf = localSpan;

/** Whole requests a bucket of `quota`'s figure refills over the burst (models/allowance.ts). */
function bucketRefill(o: BurstObservation, quota: 'minute' | 'day'): number {
  const { windows } = o.scope.ctx;
  const { perMinute, perDay } = o.scope.k.plan;
  const [figure, lengthS] = quota === 'day' ? [perDay, windows.daySeconds] : [perMinute, windows.minuteSeconds];
  return refillOver(figure, lengthS * 1000, spanOf(o.burst!.all));
}

/** reading.ts ownEndCrossed over the burst's admitted answers, when each reports the minute quota. */
function crossedOwnEnd(admitted: Observation[], figure: number, windowMs: number, spanMs: number) {
  const answers = minuteResets(admitted);
  return answers && ownEndCrossed(answers, figure, windowMs, spanMs);
}

function exact(o: BurstObservation): Verdict {
  const { perMinute } = o.scope.k.plan;
  const { all } = o.burst!;
  const admitted = admittedOf(o.burst!);
  const spanMs = spanOf(all);
  const fixed = judgedFixed(o.model);
  const { declared, windows } = o.scope.ctx;
  const windowMs = windows.minuteSeconds * 1000;
  const oneEnd = namesOneEnd(admitted, perMinute, windowMs);
  const most = perMinute + (fixed ? 0 : allowanceFor(o.model!, perMinute, windowMs, spanMs, declared, oneEnd));
  if (admitted.length >= perMinute && admitted.length <= most) return verdict.pass;
  // Its answers show it crossed its limiter's own window end: a sliding window counter's allowance there (reading.ts).
  const crossed =
    !fixed && declared === undefined && spanMs < windowMs
      ? crossedOwnEnd(admitted, perMinute, windowMs, spanMs)
      : undefined;
  if (crossed && admitted.length <= crossed.most) return verdict.pass;
  const refilled = perMinute + bucketRefill(o, 'minute');
  // Untold, a refill explains the count only where the reading counts one (reading.ts).
  if (
    untold(o.model) &&
    admitted.length > perMinute &&
    admitted.length <= refilled &&
    refillCounts(declared, 'unknown', windowMs, spanMs)
  ) {
    const why =
      `${admitted.length} of ${all.length} simultaneous requests admitted, the plan allows ${perMinute}, a refilling limiter at most ${refilled} ` +
      `over ${spanMs} ms`;
    return verdict.unjudged(`${why}, and ${untoldWhy(o.model)}`, untoldFix(o.model));
  }
  const limiter = most > perMinute ? ` (a ${o.model!.model} limiter at most ${most} over ${spanMs} ms)` : '';
  const over =
    admitted.length <= perMinute
      ? ''
      : declared === undefined && !fixed && spanMs < windowMs
        ? `: ${overWindowText(admitted.length, spanMs, perMinute, windows.minuteSeconds, 'minute')}`
        : `; ${readingFor(declared, perMinute)}`;
  return failure(
    `${all.length} simultaneous requests on a fresh window: ${admitted.length} admitted, the plan allows ${perMinute}${limiter}${over}`,
    {
      exchange: (admitted[admitted.length - 1] ?? all[0])!.ex,
      expected: perMinute,
      received: admitted.length,
    },
  );
}

/**
 * The burst's admitted answers by the window they report (quota and Reset). A Reset counts to the
 * millisecond (past it, a server's float noise). A fixed window of 2 s or more written in whole seconds
 * may name one end as two adjacent seconds (now + the store's TTL, rounded down on either side of a
 * second: rate-limiter-flexible's RateLimiterRedis, 1795903338 and 1795903339 in one burst); another
 * window's end is at least its length away. Another model's Resets within a quarter of a refill interval are one end
 * read twice off a busy server's clock (reading.ts resetNoiseMs: 1795906757.00001 and .0009034 in one burst).
 */
function windowsOf(o: BurstObservation): Map<string, Observation[]> {
  const groups = new Map<string, Observation[]>();
  const rated = admittedOf(o.burst!).filter((x) => x.rate && x.quota !== 'unknown');
  const { windows } = o.scope.ctx;
  const { perMinute, perDay } = o.scope.k.plan;
  let last: { quota: string; id: string; firstMs: number } | undefined;
  for (const x of rated.sort((a, b) => a.quota.localeCompare(b.quota) || a.rate!.reset - b.rate!.reset)) {
    const ms = Math.round(x.rate!.reset * 1000);
    const length = x.quota === 'day' ? windows.daySeconds : windows.minuteSeconds;
    const figure = x.quota === 'day' ? perDay : perMinute;
    const sameMs = judgedFixed(o.model) && length >= 2 ? RESET_ROUNDING_MS : resetNoiseMs(figure, length * 1000);
    if (!last || last.quota !== x.quota || ms - last.firstMs > sameMs)
      last = { quota: x.quota, id: `${x.quota}@${x.rate!.reset}`, firstMs: ms };
    groups.set(last.id, [...(groups.get(last.id) ?? []), x]);
  }
  return groups;
}

/** Remaining values per reported window must be distinct and contiguous. */
function remainingSet(o: BurstObservation): Verdict {
  const groups = windowsOf(o);
  // Nothing to judge is no pass: no admitted answer reports a quota this plan has (quota.headers.limit's to fail).
  if (groups.size === 0) {
    return verdict.unjudged(
      'no admitted answer of the burst reports a quota of this plan (X-RateLimit-Limit matches neither figure)',
      "X-RateLimit-Limit of the plan's minute or day figure on every answer (quota.headers.limit judges it)",
    );
  }
  for (const [id, list] of groups) {
    const values = list.map((x) => x.rate!.remaining).sort((a, b) => a - b);
    const distinct = new Set(values).size === values.length;
    const contiguous = values.length === 0 || values[values.length - 1]! - values[0]! === values.length - 1;
    // A token back during the burst repeats a value (never skips one); any span may hold a token's arrival
    // (fence posts: the ceiling of the refill). A skipped value, or repeats at once, are still a fault.
    const repeats = values.length - new Set(values).size;
    const gaps = values.length === 0 ? 0 : values[values.length - 1]! - values[0]! + 1 - new Set(values).size;
    const tokens = bucketRefill(o, list[0]!.quota as 'minute' | 'day') + (spanOf(o.burst!.all) > 0 ? 1 : 0);
    if ((!distinct || !contiguous) && untold(o.model) && gaps === 0 && repeats <= tokens) {
      return verdict.unjudged(
        `Remaining values of window ${id} under concurrency: ${values.join(',')}; a refilling limiter may repeat one, and ${untoldWhy(o.model)}`,
        untoldFix(o.model),
      );
    }
    if (!distinct || !contiguous) {
      return failure(
        `Remaining values of window ${id} under concurrency: ${values.join(',')} (not distinct and contiguous)`,
        { exchange: list[0]!.ex, received: values },
      );
    }
  }
  return verdict.pass;
}

/**
 * The most Remaining among the burst's answers reporting the minute quota: the first one the server counted,
 * whatever order they came back in. Below Limit - 1 the allowance was not whole when the
 * burst began; undefined when no answer reports the minute quota.
 */
function firstCounted(admitted: readonly Observation[]): { remaining: number; limit: number } | undefined {
  const minute = admitted.filter((o) => o.quota === 'minute' && o.rate);
  if (minute.length === 0) return undefined;
  return { remaining: Math.max(...minute.map((o) => o.rate!.remaining)), limit: minute[0]!.rate!.limit };
}

/**
 * Fewer than the plan, and the burst's own answers say it did not start on a whole allowance, while no
 * evidence showed a fixed window (the minute probe could not tell the model): a bucket's 429 names when
 * one token is back, not when the bucket is full, so the "fresh window" it led to was not (the reference
 * token bucket at 1 s windows: 2 of 3 admitted, failed). After an idle window every model is whole again:
 * the probe bursts once more; still not whole, unjudged, never failed. A model shown fixed keeps its verdict.
 */
function notWhole(b: NonNullable<BurstObservation['burst']>, perMinute: number, model: ModelVerdict | undefined) {
  const admitted = admittedOf(b);
  const start = firstCounted(admitted);
  return admitted.length < perMinute && !isFixed(model) && start && start.remaining < start.limit - 1
    ? start
    : undefined;
}

/** A second burst that still did not start whole (model not shown fixed): neither of its rules is judged. */
function notWholeVerdict(o: BurstObservation): Verdict | undefined {
  const start = notWhole(o.burst!, o.scope.k.plan.perMinute, o.model);
  if (!start) return undefined;
  const seen = `${o.burst!.all.length} simultaneous requests: ${admittedOf(o.burst!).length} admitted`;
  const first = `the first the server counted reports Remaining ${start.remaining} of ${start.limit}`;
  const why =
    `${seen}, and ${first}: the allowance was not whole when the burst began, even after an idle window, and the minute probe did not tell the ` +
    `limiter's model`;
  return verdict.unjudged(why, `${untoldFix(o.model)}, or a longer minute window`);
}

/**
 * Answers reporting the Reset of the window the burst waited out (`waitedMs`, server ms): that window had
 * not ended when they were counted (a Reset rounded down, or a Date from another clock, named its end early).
 */
function staleWindow(all: readonly Observation[], waitedMs: number): boolean {
  return all.some((o) => o.quota === 'minute' && o.rate !== undefined && o.rate.reset * 1000 <= waitedMs);
}

/** The burst's answers still report the window it waited out, on both tries: not a fresh window's count. */
function staleVerdict(o: BurstObservation): Verdict | undefined {
  if (!o.burst?.stale) return undefined;
  const why =
    `answers of the burst report the Reset of the window it waited out, on both tries: that window had not ended when they were counted, so the ` +
    `burst's count is not a fresh window's (quota.headers.reset: the Reset named an end before the window ended)`;
  return verdict.unjudged(why, "a Reset that names the window's end rounded up (never before it)");
}

/** The most answers admitted with one minute Reset: what one fixed window admitted of a burst that straddled two. */
function mostInOneWindow(all: readonly Observation[]): number {
  const perReset = new Map<number, number>();
  for (const x of all)
    if (x.admitted && x.quota === 'minute' && x.rate) perReset.set(x.rate.reset, (perReset.get(x.rate.reset) ?? 0) + 1);
  return Math.max(0, ...perReset.values());
}

/**
 * A burst answered past its fixed window's end on both tries: two windows may each have admitted up to the
 * figure. Over it within one window (one Reset) is still judged; a count above it otherwise could not be.
 * (Resets that differ alone are a bucket's creeping Reset as well: not a straddle.)
 */
function straddledVerdict(o: BurstObservation): Verdict | undefined {
  const { perMinute } = o.scope.k.plan;
  const b = o.burst!;
  const n = admittedOf(b).length;
  // Only a count above the figure can come from two windows; over two windows' worth, or over it in one, is judged.
  if (!b.straddled || n <= perMinute || n > 2 * perMinute || mostInOneWindow(b.all) > perMinute) return undefined;
  const why =
    `${b.all.length} simultaneous requests straddled the minute window's end on both tries (${n} admitted` +
    ' across two windows): the target answers too slowly for a burst of this size within one window';
  return verdict.unjudged(why, 'longer minute windows (the plans file), or a target nearer or less loaded');
}

/**
 * No admitted answer of the burst names a minute window (their X-RateLimit-* unreadable, or reporting the day, as
 * two chained limiters write them): nothing places them on either side of the end the burst was timed on, which a
 * whole-second Reset or Retry-After names up to a second early. Fixed windows admit the figure on each side of an
 * end, and a spent day refuses some: only more than twice the figure is outside every reading.
 */
function unplacedVerdict(o: BurstObservation): Verdict | undefined {
  const b = o.burst!;
  const { perMinute } = o.scope.k.plan;
  const admitted = admittedOf(b);
  const n = admitted.length;
  // A declared bucket has no window ends to straddle: it is judged as one.
  const placed = admitted.some((x) => x.quota === 'minute' && x.rate !== undefined);
  if (o.scope.ctx.declared !== undefined || placed || n === perMinute || n > 2 * perMinute) return undefined;
  const said = b.all.some((x) => x.rate !== undefined)
    ? 'its admitted answers report another quota'
    : 'no answer of the burst carried readable X-RateLimit-* (quota.headers.valid)';
  return verdict.unjudged(
    `${n} of ${b.all.length} simultaneous requests admitted, the plan allows ${perMinute}, and ${said}: nothing ` +
      "places them in one minute window (an end named in whole seconds may come up to a second early) or tells the day quota's 429s from the minute's",
    'X-RateLimit-* of the minute quota on every admitted answer, Reset a Unix time (§8.2)',
  );
}

const BURST = 'a burst of simultaneous requests at the start of a fresh minute window';

/** The burst admitted fewer than the minute figure before a 429 of the day quota: why, and what would let it run. */
function dayOut(o: BurstObservation, b: NonNullable<BurstObservation['burst']>): Unjudged {
  const why = `${admittedOf(b).length} of ${o.scope.k.plan.perMinute} admitted before a 429 the day quota owns: the day quota ran out`;
  return { reason: `${why}${o.unwaited ? ` (${o.unwaited.reason})` : ''}`, fix: o.unwaited?.fix ?? DAY_OUT_FIX };
}

/** No burst: the key's day was spent before it and the run could not wait for its end; else unexplained. */
const noBurst = (o: BurstObservation): Verdict =>
  o.unwaited
    ? verdict.unjudgedBy({ ...o.unwaited, fix: o.unwaited.fix ?? DAY_OUT_FIX })
    : missing(o, BURST, UNEXPLAINED);

/**
 * burstExact's guard: nothing to judge, the day ran out, or a burst that did not start whole or that nothing places
 * in one window (unjudged).
 */
function exactApplies(o: BurstObservation): Verdict | undefined {
  if (!o.burst) return noBurst(o);
  const across = straddledVerdict(o) ?? staleVerdict(o);
  if (across) return across;
  if (dayRanOut(o.scope, o.burst)) return verdict.unjudgedBy(dayOut(o, o.burst));
  return notWholeVerdict(o) ?? unplacedVerdict(o);
}

function remainingApplies(o: BurstObservation): Verdict | undefined {
  if (!o.burst) return noBurst(o);
  if (dayRanOut(o.scope, o.burst)) return verdict.unjudgedBy(dayOut(o, o.burst));
  // A limiter that was refilling (a bucket) may repeat a Remaining value: not a fixed window's to judge.
  const whole = staleVerdict(o) ?? notWholeVerdict(o);
  if (whole) return whole;
  // A rule of fixed windows: a refilling model's simultaneous answers may share a Remaining value.
  return remainingSetRule(o.model);
}

export const BURST_RULES: readonly ProbeRule<BurstObservation>[] = [
  rule('burstExact', exact, exactApplies),
  rule('burstRemaining', remainingSet, remainingApplies),
  ...unreached(PROBE_CHECKS.burst, (o: BurstObservation) => notReached(o, BURST, UNEXPLAINED)),
];

/** `model`: the key's model as its minute probe told it (none when it did not run). */
export const burstOf = (run: ProbeRun, model: ModelVerdict | undefined): BurstObservation => ({
  scope: scopeOf(run),
  model,
});

/**
 * A fresh window (`find`) in a day the burst can spend. Where the key's answers show its day spent (fewer left than
 * the burst needs, the day's end ahead: searching for the window may spend it), the day's end first, once, then a
 * fresh window again. Undefined, with the reason in `seen`, when the run cannot wait that long.
 */
async function freshInUnspentDay(
  run: ProbeRun,
  seen: BurstObservation,
  day: DayWait,
  find: () => Promise<FreshWindow>,
): Promise<FreshWindow | undefined> {
  const fresh = await find();
  const spent = day.used ? undefined : daySpent(run, run.k.plan.perMinute);
  if (!spent) return fresh;
  const what = `before the burst, the key's answers of the day quota left ${spent.left} of its day`;
  const unwaited = await waitOutDay(run, spent.endMs, what, day);
  if (unwaited) return void (seen.unwaited = unwaited.unwaited);
  return find();
}

/**
 * Sends the burst at the start of a fresh window: once more if it straddled a fixed window's end, or
 * after the day's end when the key's day ran out and the run affords the wait (waits.ts: one day wait).
 */
export async function probeBurst(run: ProbeRun, seen: BurstObservation): Promise<void> {
  const { perMinute } = run.k.plan;
  const { model } = seen;
  const fixed = judgedFixed(model);
  const n = burstSize(perMinute);
  const day: DayWait = { used: false };
  let idle = false;
  for (let attempt = 0; attempt < 2; attempt++) {
    // A sliding window counter weighs the last window's count at the next one's start: wait one more,
    // also when the model is unknown (the headers report the day quota: fullness cannot be seen).
    const counter = traitsOf(model).weighsLastWindow;
    // After a burst that did not start whole (below), the idle window counts from the later of the named end
    // and a window after our last request, not from the boundary: a bucket's 429 names when one token is back.
    // A counter (or a model not told) idles one window more: our last request's server time is known to
    // Date's second only, so a single idle window may still hold it in the window the counter weighs.
    const idleWindows = counter || toldNothing(model) ? 2 : idle ? 1 : 0;
    // After a burst that straddled, past the named end by a Reset's rounding: rounded down (or a proxy's
    // Date from another clock), the end it names came before the window really ended.
    const find = () => findFreshWindow(run, false, idleWindows, !counter && !idle, attempt > 0 ? RESET_ROUNDING_MS : 0);
    const fresh = await freshInUnspentDay(run, seen, day, find);
    if (!fresh) return;
    const all = await Promise.all(Array.from({ length: n }, () => observe(run)));
    const resets = new Set(all.filter((o) => o.quota === 'minute' && o.rate).map((o) => o.rate!.reset));
    const pastEnd = all.some((o) => o.serverMs > fresh.endMs + SLACK_MS);
    const stale = staleWindow(all, fresh.endMs - run.ctx.windows.minuteSeconds * 1000);
    const crossed = fixed && (resets.size > 1 || pastEnd || stale);
    if (crossed && attempt === 0) {
      // Resets that differ also come from a bucket's Reset creeping per request: with no model shown fixed,
      // the next try starts after an idle window too.
      idle = !isFixed(model);
      continue;
    }
    // A window told fixed does not creep: Resets that differ are two windows. Untold, only answers past the end.
    const burst = {
      all,
      endMs: fresh.endMs,
      straddled: isFixed(model) ? crossed : fixed && pastEnd,
      ...(stale ? { stale } : {}),
    };
    if (dayRanOut(run, burst)) {
      // The key's day ran out (its minute and day probes spend it too): burst again in the next day window,
      // when the run affords the wait, instead of leaving the rule unjudged.
      const refusal = attempt === 0 ? all.find((o) => dayOwned(run, o)) : undefined;
      const unwaited = refusal ? await waitOutDay429(run, refusal, "the burst's 429", day) : undefined;
      if (refusal && !unwaited) continue;
      seen.unwaited = unwaited?.unwaited;
    } else if (attempt === 0 && notWhole(burst, perMinute, model)) {
      idle = true; // once more after an idle window (BURST_RULES leave a second such burst unjudged)
      continue;
    }
    seen.burst = burst;
    return;
  }
}
