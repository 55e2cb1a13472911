// The minute probe: from a full allowance, a count until the 429 admits the plan's figure, Remaining
// counts down, the 429 carries a consistent Retry-After, and after waiting it requests are admitted again.
// The count, its 429 and that first request tell the limiter's model (models/minute-count.ts, OBSERVE quota.model);
// fixed-window rules (one Reset for the window, the next window admitted whole) apply only to a fixed one.
// `probeMinute` sends and records a MinuteObservation; MINUTE_RULES (minute-rules.ts) judge it.
import {
  answersBefore,
  keySamples,
  localPast,
  MARGIN_MS,
  notWaited,
  scopeOf,
  waitFor,
  type ProbeRun,
  type ProbeScope,
} from '../context.ts';
import { refusedByHold } from '../cut.ts';
import { dayLeft, dayOwned, waitOutDay, waitOutDay429, type DayWait, type Unwaited } from '../day-out.ts';
import type { Observed } from '../findings.ts';
import type { Sample } from '../../../report/model.ts';
import type { Answer } from '../remaining-ceiling.ts';
import { observe } from '../request.ts';
import { retryUntilAdmitted, type Retried } from './backoff.ts';
import { fewestBeforeRefusal } from '../judge.ts';
import { resetEndMs, type Observation } from '../observe.ts';
import { DATE_SLACK_MS as SLACK_MS, serverDateMs } from '../../../spec/ratelimit.ts';
import {
  afterFits,
  afterNeeded,
  inferModel,
  laterNeeded,
  LATER_MS,
  type ModelEvidence,
  type ModelVerdict,
} from '../models/minute-count.ts';
import { shownNotFixed, untold } from '../models/unknown.ts';
import { exhaustWindow, heldAcrossEnd, type NextWindowCount, type WindowCount } from '../window.ts';
import { bucketOrFixed, nextTooSoon, tellNotFixed } from './minute-bucket.ts';
import { waveSource } from '../waves.ts';

export type { NextWindowCount } from '../window.ts';

/** What the minute probe saw, stage by stage; a stage never reached is absent (and `cut` says why, when cut). */
export interface MinuteObservation extends Observed {
  scope: ProbeScope;
  /** The window ended twice before the count did: the target is too slow for this window length. */
  tooSlow?: boolean;
  /** The count from a full allowance until its 429 (or over-admission); taken again in a fresh day when its day ran out. */
  count?: WindowCount;
  /** The count was taken again in a fresh day (day-out.ts): it is the exact count's too. */
  fresh?: boolean;
  /** The limiter's model, once inferred from the count (and the recovery when there was a 429). */
  model?: ModelVerdict;
  /** Waiting out the 429 and the tries until admitted again (recorded with the model), or why the day's end was not waited. */
  retried?: Retried | Unwaited;
  /** The window after the 429, counted when its headers do not show the minute allowance. */
  next?: NextWindowCount;
  /** With the model unknown, the Resets of minute 429s showing no fixed window (minute-bucket.ts tellNotFixed). */
  notFixed?: ModelVerdict;
  /** What the exact count is judged by: the count (once more after an idle window when short), and the model. */
  exact?: { count: WindowCount; model: ModelVerdict };
  /** This key's answers when the exact count was taken (those identifying the target first): the Remaining ceiling. */
  answers?: readonly Answer[];
  /** This key's samples once the recovery was tried: what was admitted in the window's length before each refusal. */
  samples?: readonly Sample[];
  /** Every request of the probe's key once the recovery was tried (and the window after it counted), on our clock (refusal-window.ts). */
  sent?: readonly Observation[];
}

export const minuteOf = (run: ProbeRun): MinuteObservation => ({ scope: scopeOf(run) });

/**
 * Waits out the 429 as told (bounded) — and at least until the last admitted request's Reset, when every
 * model has given the whole allowance back (a sliding log's oldest request ages out first) — then retries.
 * A 429 of the day quota (the count spent the key's day, or the first retry met the day's end) is waited
 * out as the day's Retry-After says, not to the minute window's end.
 */
async function recover(run: ProbeRun, count: WindowCount, day: DayWait): Promise<Retried | Unwaited> {
  const { ctx } = run;
  const rej = count.rejected!;
  const minuteMs = ctx.windows.minuteSeconds * 1000;
  const capMs = minuteMs + SLACK_MS;
  const dayOut = (o: Observation): boolean => dayOwned(run, o);
  if (dayOut(rej)) return (await waitOutDay429(run, rej, "the count's 429", day)) ?? retryUntilAdmitted(run, 0, capMs);
  const toEnd = count.endMs - rej.serverMs + MARGIN_MS;
  const told =
    rej.retryAfter && rej.retryAfter.seconds <= ctx.windows.minuteSeconds + 1
      ? rej.retryAfter.seconds * 1000 + MARGIN_MS
      : toEnd;
  const last = count.admitted[count.admitted.length - 1];
  // A minute Reset only: a day's would hold the wait to the cap, and a bucket would be full again by then.
  const lastReset = last?.quota === 'minute' ? resetEndMs(run, last) : undefined;
  // On the server's clock (the latest it can be), so the wait never ends before that Reset.
  const wholeAt = lastReset === undefined ? undefined : localPast(ctx, lastReset);
  const whole = wholeAt === undefined ? 0 : wholeAt - ctx.clock.now();
  const retried = await wholeWindowLater(
    run,
    count,
    await retryUntilAdmitted(run, Math.min(Math.max(told, whole), capMs), capMs, dayOut),
  );
  const met = retried.refusals[retried.refusals.length - 1];
  if (retried.admitted || !met || !dayOut(met)) return retried;
  // The count took the day's last requests: the minute's recovery shows only after the day's end.
  return (
    (await waitOutDay429(run, met, "the first 429 after the minute's Retry-After", day)) ??
    retryUntilAdmitted(run, 0, capMs)
  );
}

/**
 * Tries refused to the end: one more once a whole window (and the Date slack) has passed since the count's
 * last admitted answer, when the wait fits: refused then, no reading of "N per window" allows it (a rolling
 * window has let every admission age out, a fixed one has ended). The hold decides whether it may go.
 */
async function wholeWindowLater(run: ProbeRun, count: WindowCount, retried: Retried): Promise<Retried> {
  const last = count.admitted[count.admitted.length - 1];
  const met = retried.refusals[retried.refusals.length - 1];
  if (retried.admitted || !last || !met || dayOwned(run, met)) return retried;
  const at = localPast(run.ctx, last.serverMs + run.ctx.windows.minuteSeconds * 1000 + SLACK_MS);
  const ms = at === undefined ? undefined : at - run.ctx.clock.now();
  if (ms === undefined || notWaited(run.ctx, ms, 'one more try a whole window after the last admission'))
    return retried;
  try {
    await waitFor(run.ctx, ms, 'one more try a whole window after the last admission');
    const o = await observe(run);
    return o.admitted ? { ...retried, admitted: o } : { refusals: [...retried.refusals, o] };
  } catch (error) {
    if (refusedByHold(error)) return retried;
    throw error;
  }
}

/**
 * The window after the 429 must be counted (rather than read from the recovery's headers): admitted at
 * once, a fixed (or unknown) model, and the recovery's headers do not show the minute allowance.
 */
export function nextWindowByCount(retried: Retried | Unwaited, model: ModelVerdict): boolean {
  if ('unwaited' in retried) return false;
  const admitted = retried.admitted;
  if (!admitted || retried.refusals.length > 0) return false;
  if (shownNotFixed(model)) return false;
  return admitted.quota !== 'minute' || !admitted.rate;
}

/**
 * The headers of the window after the 429 do not show the minute allowance (two limiters, each writing
 * its own X-RateLimit-*: the day's on a 200): count it instead, from the recovery on, until a 429 or the
 * window's end (minute-rules.ts judges the count).
 */
async function countNextWindow(run: ProbeRun, first: Observation, count: WindowCount): Promise<NextWindowCount> {
  const { perMinute } = run.k.plan;
  const untilMs = first.serverMs + run.ctx.windows.minuteSeconds * 1000;
  let admitted = 1;
  let last: Observation = first;
  // Past the figure, up to one more than the count admitted, in waves as wide as the figure's: a fixed window
  // admitting what the count did shows its 429 there, or its allowance back sooner than a bucket refills
  // (minute.ts nextTooSoon, models/bucket-fit.ts).
  const most = Math.max(perMinute, count.admitted.length) + 1;
  const source = waveSource(run, perMinute, () => (admitted < perMinute ? perMinute + 1 : most) - admitted);
  while (admitted < most && last.serverMs < untilMs) {
    last = await source.next();
    if (!last.admitted) break;
    admitted++;
  }
  return { admitted, last };
}

const minuteOnly = (o: Observation | undefined) => (o?.quota === 'minute' && o.rate ? o : undefined);

function evidenceOf(run: ProbeRun, count: WindowCount, retried?: Retried): ModelEvidence {
  const e: ModelEvidence = {
    windowSeconds: run.ctx.windows.minuteSeconds,
    admitted: count.admitted
      .filter((o) => minuteOnly(o))
      .map((o) => ({ sentMs: o.sentLocal, receivedMs: o.receivedLocal, reset: o.rate!.reset })),
  };
  const rej = minuteOnly(count.rejected);
  const rec = minuteOnly(retried?.admitted);
  if (rej)
    e.refused = {
      reset: rej.rate!.reset,
      inWindow: keySamples(run).filter((x) => x.status === 429 && x.reset === rej.rate!.reset).length,
    };
  const dateMs = rec && serverDateMs(rec.ex.response.headers);
  if (rec) {
    const { reset, remaining, limit } = rec.rate!;
    e.recovery = { reset, dateS: dateMs === undefined ? undefined : dateMs / 1000, remaining, limit };
  }
  return e;
}

/** Room left in a first-request window after the later request, for its answer to come back inside it. */
const LATER_ROOM_MS = 500;

/**
 * When the evidence fits a first-request window and a sliding log alike (models/minute-count.ts laterNeeded), one more
 * request LATER_MS after the recovery tells them apart, where the window leaves room for it.
 */
async function modelOf(run: ProbeRun, count: WindowCount, recovery?: Retried | Unwaited): Promise<ModelVerdict> {
  const retried = recovery && 'unwaited' in recovery ? undefined : recovery;
  const e = evidenceOf(run, count, retried);
  const rec = retried?.admitted;
  if (rec && laterNeeded(e) && run.ctx.windows.minuteSeconds * 1000 >= LATER_MS + LATER_ROOM_MS) {
    await waitFor(
      run.ctx,
      LATER_MS - (run.ctx.clock.now() - rec.receivedLocal),
      'one more request to tell the window model',
    );
    const later = minuteOnly(await observe(run));
    if (later?.admitted) e.later = { reset: later.rate!.reset, afterMs: later.sentLocal - rec.receivedLocal };
    if (later && afterNeeded(e)) await tellAfter(run, e, rec, later);
  }
  return inferModel(e);
}

/**
 * A first-request window or a moving window (a log reporting its oldest request's expiry, models/minute-count.ts
 * afterNeeded): one more request once the recovery's window has ended, while the later one still counts.
 */
async function tellAfter(run: ProbeRun, e: ModelEvidence, rec: Observation, later: Observation): Promise<void> {
  const windowMs = run.ctx.windows.minuteSeconds * 1000;
  const untilMs = rec.receivedLocal + windowMs + MARGIN_MS;
  await waitFor(run.ctx, untilMs - run.ctx.clock.now(), 'one more request to tell a moving window');
  const after = minuteOnly(await observe(run));
  if (!after?.admitted) return;
  const sent = { recoveryReceivedMs: rec.receivedLocal, laterSentMs: later.sentLocal };
  const times = { ...sent, afterSentMs: after.sentLocal, afterReceivedMs: after.receivedLocal };
  e.after = { remaining: after.rate!.remaining, limit: after.rate!.limit, fits: afterFits(times, e.windowSeconds) };
}

/**
 * A count that may not be one window's from a full allowance is counted once more after an idle window, so our
 * ambiguity costs time, never a verdict:
 * - short, when the headers do not show the minute allowance (model unknown) or its Remaining was shown too high
 *   (the "full" start was read from those headers): it may have started from a limiter not yet full (a counter's
 *   last window still weighs, a bucket one token short);
 * - above the figure, when the 429 hold released it late across an end (window.ts heldAcrossEnd): the idle
 *   window is one no hold reaches.
 */
async function recountIfDoubtful(run: ProbeRun, count: WindowCount, model: ModelVerdict): Promise<WindowCount> {
  const { perMinute } = run.k.plan;
  const held = count.admitted.length > perMinute && heldAcrossEnd(count, run.ctx.windows.minuteSeconds * 1000);
  const short = count.admitted.length < perMinute && !(count.rejected && dayOwned(run, count.rejected));
  const headersLied = (fewestBeforeRefusal(count) ?? 0) > 0;
  if (!held && (!short || (!untold(model) && !headersLied))) return count;
  return (await exhaustWindow(run, false, 1)) ?? count;
}

/**
 * The count's day cannot hold the rest of the probe: its 429 was the day quota's (the day ran out before
 * the minute's figure), or its answers report the day with fewer left than the recovery, one later request
 * and the window after the 429 need (minute.ts counts it when the headers report the day). Then the probe
 * waits for the day's end (its one day wait) and counts once more in the fresh day — its one recount, the
 * one recountIfDoubtful would take. Undefined: go on with this count.
 */
async function recountInFreshDay(run: ProbeRun, count: WindowCount, day: DayWait): Promise<WindowCount | undefined> {
  const { perMinute } = run.k.plan;
  const rej = count.rejected;
  // No 429 at all: the minute quota over-admitted, which quota.minute.exact fails whatever the day; nothing after needs it.
  if (!rej) return undefined;
  if (dayOwned(run, rej) && count.admitted.length < perMinute) {
    if (await waitOutDay429(run, rej, "the count's 429", day)) return undefined;
  } else {
    const left =
      count.admitted[count.admitted.length - 1]?.quota === 'day' ? dayLeft([...count.admitted, rej]) : undefined;
    if (!left || left.left >= perMinute + 1) return undefined;
    if (await waitOutDay(run, left.endMs, `the count's answers left ${left.left} of the day`, day)) return undefined;
  }
  return (await exhaustWindow(run, false, 1)) ?? undefined;
}

/** The model is the other probes' too: run.ts hands `seen.model` to the key's burst and day probes. */
function remember(seen: MinuteObservation, model: ModelVerdict): void {
  seen.model = model;
}

/** The exact count's stage, and this key's answers then (the Remaining ceiling reads them). */
function judgeBy(run: ProbeRun, seen: MinuteObservation, count: WindowCount, model: ModelVerdict): void {
  seen.exact = { count, model };
  seen.answers = [...answersBefore(run), ...keySamples(run)];
}

/** Runs the minute probe into `seen`; `afterExhaust` runs while the window is spent (the isolation probe). */
export async function probeMinute(
  run: ProbeRun,
  seen: MinuteObservation,
  afterExhaust?: (count: WindowCount) => Promise<void>,
): Promise<void> {
  const first = await exhaustWindow(run);
  if (!first) {
    seen.tooSlow = true;
    return;
  }
  await afterExhaust?.(first);
  // Recorded before any wait: a probe cut at the wait its 429 asked for is still judged on this count.
  seen.count = first;
  const day: DayWait = { used: false };
  const fresh = await recountInFreshDay(run, first, day);
  const count = fresh ?? first;
  seen.count = count;
  seen.fresh = fresh !== undefined;
  if (!count.rejected) {
    const model = await modelOf(run, count);
    remember(seen, model);
    judgeBy(run, seen, count, model);
    return;
  }
  const retried = await recover(run, count, day);
  const model = await modelOf(run, count, retried);
  remember(seen, model);
  seen.retried = retried;
  seen.samples = keySamples(run);
  seen.sent = run.answers.map((a) => a.o);
  const next = nextWindowByCount(retried, model)
    ? await countNextWindow(run, (retried as Retried).admitted!, count)
    : undefined;
  seen.next = next;
  // Taken again with the window after the 429 counted: its refusal is judged on them too (requests sent after a
  // refusal was answered never count for it, so one list serves every refusal).
  if (next) seen.sent = run.answers.map((a) => a.o);
  const exact = fresh ? count : await recountIfDoubtful(run, count, model);
  const judged = await bucketOrFixed(run, exact, model, next, nextTooSoon(run, count, next));
  if (!undecided(run, model, judged, next)) return judgeBy(run, seen, judged.count, judged.model);
  const lastOf = (c: WindowCount): Array<Observation | undefined> => [c.rejected, c.admitted[c.admitted.length - 1]];
  seen.notFixed = await tellNotFixed(run, [...lastOf(count), next?.last, ...lastOf(judged.count)]);
  judgeBy(run, seen, judged.count, untold(judged.model) && seen.notFixed ? seen.notFixed : judged.model);
}

/**
 * A rule still waiting on the model, which the headers did not show: the exact count above the figure, told
 * by no count (minute-bucket.ts bucketOrFixed), or the window after the 429 refused before its whole
 * allowance (minute-rules.ts nextByCount). The Resets of minute 429s may still show that no fixed window is
 * at work (tellNotFixed).
 */
function undecided(
  run: ProbeRun,
  model: ModelVerdict,
  judged: { count: WindowCount; model: ModelVerdict },
  next?: NextWindowCount,
): boolean {
  const { perMinute } = run.k.plan;
  const { count } = judged;
  const exactOpen = untold(judged.model) && count.admitted.length > perMinute && !count.over && !count.capped;
  const nextOpen = untold(model) && next !== undefined && next.admitted < perMinute && next.last.status === 429;
  return exactOpen || nextOpen;
}
