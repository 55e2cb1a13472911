// Minute exactness where the headers do not show the limiter's model (two limiters, each writing its own
// X-RateLimit-*: the day's on a 200, the minute's on its 429; review R3 of #15). A count from a full allowance
// above the plan's figure, but within what a bucket refills over it, is a correct token bucket or GCRA at a
// distance, or a fixed window over-admitting. What the count, its 429 and the window after it show decides
// which (bucket-fit.ts), else it stays unjudged: never passed, never failed on a guess.
import { DAY_OUT_FIX, dayOwned } from './day-out.ts';
import type { ProbeRun } from './context.ts';
import type { NextWindowCount } from './minute.ts';
import type { ModelVerdict } from './model.ts';
import type { Observation } from './observe.ts';
import { exhaustWindow, type WindowCount } from './window.ts';
import {
  admittedTooSoon, FENCE, longerThanOneToken, refusedTooEarly, startedFull, type BucketCount, type Timed,
} from './bucket-fit.ts';

const timed = (o: Observation): Timed => ({ sentMs: o.sentLocal, receivedMs: o.receivedLocal });
const windowMsOf = (run: ProbeRun): number => run.ctx.windows.minuteSeconds * 1000;
const bucketOf = (limit: number, windowMs: number): string => `a bucket of ${limit} per ${windowMs} ms`;

/**
 * What the window after the count's minute 429 shows: more admitted than a bucket of the plan's figure,
 * under one token at that 429, refills by the last of them (bucket-fit.ts); or the whole allowance back at
 * once after a Retry-After longer than a bucket's one token. Either way the limiter gives its allowance
 * back at a window's end, not as a bucket refills.
 */
export function nextTooSoon(run: ProbeRun, count: WindowCount, next: NextWindowCount | undefined): string | undefined {
  const rej = count.rejected;
  if (!next || rej?.quota !== 'minute') return undefined;
  const [limit, windowMs] = [run.k.plan.perMinute, windowMsOf(run)];
  const o = { limit, windowMs, refused: timed(rej), admitted: next.admitted, lastMs: next.last.receivedLocal };
  const bucket = bucketOf(limit, windowMs);
  if (admittedTooSoon(o)) {
    return `after the 429 the limiter admitted ${next.admitted} within ${Math.round(o.lastMs - o.refused.sentMs)} ms, more than ${bucket} refills`;
  }
  if (next.admitted < limit || !rej.retryAfter || !longerThanOneToken(limit, windowMs, rej.retryAfter)) return undefined;
  const longer = `the 429's Retry-After ${rej.retryAfter.raw} is longer than ${bucket} names for one request`;
  return `${longer}, and after it the window admitted ${next.admitted} at once`;
}

/**
 * The window after the count's 429 ended with a minute 429 after fewer admitted than this count: no fixed
 * window does that (each admits its capacity, and this count's window held `n`); a refilling one does.
 */
function nextRefilled(next: NextWindowCount | undefined, n: number): string | undefined {
  if (!next || next.last.status !== 429 || next.last.quota !== 'minute' || next.admitted >= n) return undefined;
  return `the window after the 429 admitted ${next.admitted}, then a minute 429: fewer than the count's ${n}, as no fixed window does`;
}

/**
 * What a count above the figure tells of the limiter when the headers do not show the model: its minute
 * 429 came earlier than any bucket of the plan's figure refuses (given the key's rest before it), or the
 * window after it came back faster than a bucket refills (`afterTooSoon`): a fixed window, judged
 * exactly. The window after it refused sooner than this count: a refilling limiter, judged as a bucket.
 */
function toldByCount(run: ProbeRun, count: WindowCount, why: string, next?: NextWindowCount, afterTooSoon?: string): ModelVerdict | undefined {
  const rej = count.rejected;
  if (rej?.quota !== 'minute') return undefined;
  const c: BucketCount = {
    limit: run.k.plan.perMinute, windowMs: windowMsOf(run), restMs: count.restMs, admitted: count.admitted.map(timed), refused: timed(rej),
  };
  const n = count.admitted.length;
  if (refusedTooEarly(c)) {
    return { model: 'fixed', why: `${why}; its 429 after ${n} came while ${bucketOf(c.limit, c.windowMs)} would still have held ${FENCE} or more` };
  }
  if (afterTooSoon) return { model: 'fixed', why: `${why}; ${afterTooSoon}` };
  const refilled = nextRefilled(next, n);
  return refilled ? { model: 'token-bucket', why: `${why}; ${refilled}: judged as a bucket refilling over the count` } : undefined;
}

/** Why a count above the figure stays unjudged: a bucket's refill and a fixed window's over-admission alike. */
const UNDECIDED_FIX =
  'X-RateLimit-* of the minute quota on admitted answers (the model is then told), or a longer minute window (plans file: windows.minuteSeconds)';

/**
 * With the model unknown (two limiters, the day's headers on a 200), a count above the plan's figure but
 * within what a bucket refills over it is a correct bucket's at a distance, or a fixed window over-admitting:
 * judged by the evidence (toldByCount); when it does not decide, one more count from a window at rest (a
 * bucket full, a fixed window fresh) may show a 429 no bucket gives; else unjudged (model 'unknown':
 * minute-rules.ts `exact`), never passed, never failed.
 */
export async function bucketOrFixed(
  run: ProbeRun, count: WindowCount, model: ModelVerdict, next?: NextWindowCount, afterTooSoon?: string,
): Promise<{ count: WindowCount; model: ModelVerdict }> {
  const { perMinute } = run.k.plan;
  const above = count.admitted.length > perMinute && !count.over && count.rejected?.quota === 'minute';
  if (model.model !== 'unknown' || !above) return { count, model };
  const told = toldByCount(run, count, model.why, next, afterTooSoon);
  if (told) return { count, model: told };
  // A count from a window at rest already is that count: another one, paced alike, would tell no more.
  const rested = startedFull({ restMs: count.restMs, windowMs: windowMsOf(run) });
  const again = rested ? undefined : await exhaustWindow(run, false, 1);
  const recounted = again && toldByCount(run, again, model.why);
  if (again && recounted) return { count: again, model: recounted };
  const dayOut = next?.last.status === 429 && dayOwned(run, next.last) ? ' (the day ran out in the window after the 429)' : '';
  const n = count.admitted.length;
  const alike = `a bucket's refill over the count and a fixed window over-admitting alike, and what followed told neither${dayOut}`;
  const undecided = `${model.why}; ${n} admitted, within what a bucket of ${perMinute} refills over the count: ${alike}`;
  return { count, model: { model: 'unknown', why: undecided, fix: dayOut ? DAY_OUT_FIX : UNDECIDED_FIX } };
}
