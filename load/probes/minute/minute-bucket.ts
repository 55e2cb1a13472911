// Minute exactness where the headers do not show the limiter's model (two limiters, each writing its own
// X-RateLimit-*: the day's on a 200, the minute's on its 429). A count from a full allowance
// above the plan's figure, but within what a bucket refills over it, is a correct token bucket or GCRA at a
// distance, or a fixed window over-admitting. What the count, its 429 and the window after it show decides
// which (models/bucket-fit.ts), else it stays unjudged: never passed, never failed on a guess.
import { DAY_OUT_FIX, dayOwned } from '../day-out.ts';
import { waitFor, type ProbeRun } from '../context.ts';
import { HEADER_RESOLUTION_S, type ModelVerdict } from '../models/minute-count.ts';
import { untold } from '../models/unknown.ts';
import type { Observation } from '../observe.ts';
import { observe } from '../request.ts';
import { exhaustWindow, type NextWindowCount, type WindowCount } from '../window.ts';
import { admittedTooSoon, FENCE, startedFull, type BucketCount, type Timed } from '../models/bucket-fit.ts';
import { bucketOf, toldByCount, toldByResets } from '../models/two-limiters.ts';

const timed = (o: Observation): Timed => ({ sentMs: o.sentLocal, receivedMs: o.receivedLocal });
const windowMsOf = (run: ProbeRun): number => run.ctx.windows.minuteSeconds * 1000;

/**
 * What the window after the count's minute 429 shows: more admitted than a bucket of the plan's figure, under
 * one token at that 429, refills by the last of them (models/bucket-fit.ts): the limiter gives its allowance
 * back at a window's end, not as a bucket refills. A Retry-After alone tells nothing: a bucket may name when it
 * is full again, and waited out it gives its whole allowance at once too.
 */
export function nextTooSoon(run: ProbeRun, count: WindowCount, next: NextWindowCount | undefined): string | undefined {
  const rej = count.rejected;
  if (!next || rej?.quota !== 'minute') return undefined;
  const [limit, windowMs] = [run.k.plan.perMinute, windowMsOf(run)];
  const o = { limit, windowMs, refused: timed(rej), admitted: next.admitted, lastMs: next.last.receivedLocal };
  if (!admittedTooSoon(o)) return undefined;
  const within = Math.round(o.lastMs - o.refused.sentMs);
  return `after the 429 the limiter admitted ${next.admitted} within ${within} ms, more than ${bucketOf(limit, windowMs)} refills`;
}

/**
 * What a count above the figure tells of the limiter when the headers do not show the model
 * (models/two-limiters.ts toldByCount), from the count's own answers and the window after its 429.
 */
function toldByCountOf(
  run: ProbeRun,
  count: WindowCount,
  why: string,
  next?: NextWindowCount,
  afterTooSoon?: string,
): ModelVerdict | undefined {
  const rej = count.rejected;
  if (rej?.quota !== 'minute') return undefined;
  const c: BucketCount = {
    limit: run.k.plan.perMinute,
    windowMs: windowMsOf(run),
    restMs: count.restMs,
    admitted: count.admitted.map(timed),
    refused: timed(rej),
  };
  const refusedByMinute = next?.last.status === 429 && next.last.quota === 'minute';
  return toldByCount(c, why, next && { admitted: next.admitted, refusedByMinute }, afterTooSoon);
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
  run: ProbeRun,
  count: WindowCount,
  model: ModelVerdict,
  next?: NextWindowCount,
  afterTooSoon?: string,
): Promise<{ count: WindowCount; model: ModelVerdict }> {
  const { perMinute } = run.k.plan;
  const above = count.admitted.length > perMinute && !count.over && count.rejected?.quota === 'minute';
  if (!untold(model) || !above) return { count, model };
  const told = toldByCountOf(run, count, model.why, next, afterTooSoon);
  if (told) return { count, model: told };
  // A count from a window at rest already is that count: another one, paced alike, would tell no more.
  const rested = startedFull({ restMs: count.restMs, windowMs: windowMsOf(run) });
  const again = rested ? undefined : await exhaustWindow(run, false, 1);
  const recounted = again && toldByCountOf(run, again, model.why);
  if (again && recounted) return { count: again, model: recounted };
  const dayOut =
    next?.last.status === 429 && dayOwned(run, next.last) ? ' (the day ran out in the window after the 429)' : '';
  const n = count.admitted.length;
  const alike = `a bucket's refill over the count and a fixed window over-admitting alike, and what followed told neither${dayOut}`;
  const undecided = `${model.why}; ${n} admitted, within what a bucket of ${perMinute} refills over the count: ${alike}`;
  return { count, model: { model: 'unknown', why: undecided, fix: dayOut ? DAY_OUT_FIX : UNDECIDED_FIX } };
}

/** The share of a window between two waves of `tellNotFixed`: a bucket of the figure refills this share of it. */
const TELL_STEP_SHARE = 1 / 8;

/** A 429 of the minute quota, whose Reset is the minute limiter's (not the day's). */
const minute429 = (run: ProbeRun, o: Observation | undefined): o is Observation =>
  o !== undefined && o.status === 429 && o.quota === 'minute' && o.rate !== undefined && !dayOwned(run, o);

/**
 * With the model unknown (two limiters, the day's headers on a 200), whether the limiter is no fixed window,
 * by the Resets of its minute 429s (models/bucket-fit.ts `resetsNoFixedWindow`): those `seen` so far, else waves one
 * TELL_STEP_SHARE of a window apart, each FENCE wider than a bucket of the figure refills between them (from a
 * bucket just refused, it refuses some of every wave; from a fuller one the waves drain it first, or tell
 * nothing), over the headers' resolution and two waves more, stopping once told. A bucket's 429s then name
 * one second and the next; a fixed window's never do, whatever it charges its 429s to (it stays unknown: the
 * rules it gates stay unjudged, never passed). Bounded: at most that many waves; the server's Resets only.
 */
export async function tellNotFixed(
  run: ProbeRun,
  seen: ReadonlyArray<Observation | undefined>,
): Promise<ModelVerdict | undefined> {
  const { minuteSeconds } = run.ctx.windows;
  const resets = seen.filter((o) => minute429(run, o)).map((o) => o!.rate!.reset);
  const told = (): ModelVerdict | undefined => toldByResets(resets, minuteSeconds);
  if (told() || minuteSeconds <= HEADER_RESOLUTION_S) return told();
  const stepMs = minuteSeconds * 1000 * TELL_STEP_SHARE;
  const width = Math.ceil(run.k.plan.perMinute * TELL_STEP_SHARE) + FENCE;
  const waves = Math.ceil((HEADER_RESOLUTION_S * 1000) / stepMs) + 2;
  // From a bucket not just refused (the latest answer admitted), the first wave drains it: its figure wider.
  const latest = seen.reduce<Observation | undefined>(
    (a, o) => (o && (!a || o.receivedLocal > a.receivedLocal) ? o : a),
    undefined,
  );
  const first = minute429(run, latest) ? width : width + run.k.plan.perMinute;
  // Every answer is awaited before returning, even when a wait is refused; a failed request (ProbeStop) is rethrown then.
  const inFlight: Array<Promise<unknown>> = [];
  const take = (o: Observation): void => void (minute429(run, o) && resets.push(o.rate!.reset));
  try {
    for (let i = 0; i < waves && !told(); i++) {
      if (i > 0) await waitFor(run.ctx, stepMs, 'the next wave telling a bucket from a fixed window by its Resets');
      for (let j = 0; j < (i === 0 ? first : width); j++) {
        const answer = observe(run).then(take);
        answer.catch(() => undefined); // read in `finally`: not an unhandled rejection meanwhile
        inFlight.push(answer);
      }
    }
  } finally {
    const settled = await Promise.allSettled(inFlight);
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
  return told();
}
