// The minute probe: from a full allowance, a count until the 429 admits the plan's figure, Remaining
// counts down, the 429 carries a consistent Retry-After, and after waiting it requests are admitted again.
// The count, its 429 and that first request tell the limiter's model (model.ts, OBSERVE quota.model);
// fixed-window rules (one Reset for the window, the next window admitted whole) apply only to a fixed one.
import { labelOf, MARGIN_MS, waitFor, type ProbeRun } from './context.ts';
import { dayLeft, dayOwned, waitOutDay, waitOutDay429, type DayWait, type Unwaited } from './day-out.ts';
import { observe } from './request.ts';
import { retryUntilAdmitted, type Retried } from './backoff.ts';
import { judgeApplicable, judgeRemaining, judgeRemainingCeiling, judgeRetryAfter, judgeRetryAfterConsistent } from './judge.ts';
import { retryAfterBeyond, resetEndMs, type Observation } from './observe.ts';
import { DATE_SLACK_MS as SLACK_MS, serverDateMs } from '../../spec/ratelimit.ts';
import { allowance, inferModel, isFixed, laterNeeded, LATER_MS, notFixedHow, notFixedReason, type ModelEvidence, type ModelVerdict } from './model.ts';
import { exhaustWindow, type WindowCount } from './window.ts';
import { waveSource } from './waves.ts';

/** A 429 of the day quota: its headers say so, or its Retry-After reaches past the minute window. */
const dayRefused = (o: Observation, minuteEndMs: number): boolean => o.quota === 'day' || retryAfterBeyond(o, minuteEndMs);

/** Fixed windows: exactly the plan's figure. Other models: at least it, at most what they refill over the count. */
function judgeExact(run: ProbeRun, count: WindowCount, model: ModelVerdict): void {
  const { perMinute } = run.k.plan;
  const n = count.admitted.length;
  const last = count.admitted[n - 1] ?? count.rejected;
  const spanMs = (last?.receivedLocal ?? 0) - (count.admitted[0]?.sentLocal ?? 0);
  const most = perMinute + allowance(model.model, perMinute, run.ctx.windows.minuteSeconds * 1000, spanMs);
  const plan = most === perMinute ? `the plan allows ${perMinute}` : `the plan allows ${perMinute}, and a ${model.model} limiter at most ${most} over these ${spanMs} ms`;
  if (count.over || n > most) {
    run.f.fail('minuteExact', `${n} requests admitted from a full minute allowance; ${plan}`, { exchange: last?.ex, expected: perMinute, received: n });
  } else if (n >= perMinute) {
    run.f.pass('minuteExact');
  } else if (count.rejected && dayRefused(count.rejected, count.endMs)) {
    run.f.skip('minuteExact', `429 after ${n} of ${perMinute} with a Retry-After beyond the minute window: the day quota ran out`, { fix: 'run again in a fresh day window of this key (or with a key whose day quota is unspent)' });
  } else {
    run.f.fail('minuteExact', `429 after only ${n} admitted from a full minute allowance; the plan allows ${perMinute}`, { exchange: count.rejected?.ex, expected: perMinute, received: n });
  }
}

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
  const told = rej.retryAfter && rej.retryAfter.seconds <= ctx.windows.minuteSeconds + 1 ? rej.retryAfter.seconds * 1000 + MARGIN_MS : toEnd;
  const last = count.admitted[count.admitted.length - 1];
  // A minute Reset only: a day's would hold the wait to the cap, and a bucket would be full again by then.
  const lastReset = last?.quota === 'minute' ? resetEndMs(run, last) : undefined;
  // On the server's clock (the latest it can be), so the wait never ends before that Reset.
  const wholeAt = lastReset === undefined ? undefined : ctx.serverClock.toLocalNotBefore(lastReset + MARGIN_MS);
  const whole = wholeAt === undefined ? 0 : wholeAt - ctx.clock.now();
  const retried = await retryUntilAdmitted(run, Math.min(Math.max(told, whole), capMs), capMs, dayOut);
  const met = retried.refusals[retried.refusals.length - 1];
  if (retried.admitted || !met || !dayOut(met)) return retried;
  // The count took the day's last requests: the minute's recovery shows only after the day's end.
  return (await waitOutDay429(run, met, "the first 429 after the minute's Retry-After", day)) ?? retryUntilAdmitted(run, 0, capMs);
}

/** Whether nextWindow is left to a count of the window after the 429 (its headers do not show the minute allowance). */
type NextWindowBy = 'judged' | 'count';

function judgeRecovery(run: ProbeRun, count: WindowCount, retried: Retried | Unwaited, model: ModelVerdict): NextWindowBy {
  const { f } = run;
  if ('unwaited' in retried) {
    f.skip('recovery', retried.unwaited, { fix: retried.fix });
    f.skip('nextWindow', `no recovery was waited: ${retried.unwaited}`, { fix: retried.fix });
    return 'judged';
  }
  const rej = count.rejected!;
  const admitted = retried.admitted;
  if (!admitted) {
    f.fail('recovery', `still 429 after waiting Retry-After and ${retried.refusals.length} tries with exponential backoff; gave up to spare the key`, { exchange: retried.refusals[retried.refusals.length - 1]?.ex });
    f.skip('nextWindow', 'no recovery');
    return 'judged';
  }
  if (retried.refusals.length > 0) {
    f.fail('recovery', `429 again after waiting Retry-After (${rej.retryAfter?.raw ?? 'absent'}); admitted only after ${retried.refusals.length} backoff tries`, { exchange: retried.refusals[0]!.ex });
    f.skip('nextWindow', 'the first request after the wait was refused');
    return 'judged';
  }
  f.pass('recovery');
  if (rej.quota === 'minute' && rej.rate && admitted.quota === 'minute' && admitted.rate && admitted.rate.reset <= rej.rate.reset) {
    f.fail('reset', `after the reset at ${rej.rate.reset} the next request still reports Reset ${admitted.rate.reset}`, { exchange: admitted.ex });
  }
  if (model.model !== 'unknown' && !isFixed(model)) {
    f.skip('nextWindow', notFixedReason(model), notFixedHow(model));
    return 'judged';
  }
  if (admitted.quota !== 'minute' || !admitted.rate) return 'count';
  if (admitted.rate.remaining !== admitted.rate.limit - 1) {
    f.fail('nextWindow', `the first request of the window after a 429 reports Remaining ${admitted.rate.remaining}, expected ${admitted.rate.limit - 1}: the 429 was charged to the next window, or Remaining is wrong`, {
      exchange: admitted.ex, expected: admitted.rate.limit - 1, received: admitted.rate.remaining,
    });
  } else f.pass('nextWindow');
  return 'judged';
}

/**
 * The headers of the window after the 429 do not show the minute allowance (two limiters, each writing
 * its own X-RateLimit-*: the day's on a 200): count it instead, from the recovery on, until a 429 or the
 * window's end. The whole allowance admitted proves the 429 did not shrink it; fewer, with the model
 * unknown, cannot tell a 429 charged to it from a counter's carried weight (unjudged).
 */
async function judgeNextWindowByCount(run: ProbeRun, first: Observation, model: ModelVerdict): Promise<number> {
  const { perMinute } = run.k.plan;
  const untilMs = first.serverMs + run.ctx.windows.minuteSeconds * 1000;
  let admitted = 1;
  let last: Observation = first;
  const source = waveSource(run, perMinute, () => perMinute + 1 - admitted);
  while (admitted < perMinute && last.serverMs < untilMs) {
    last = await source.next();
    if (!last.admitted) break;
    admitted++;
  }
  if (admitted >= perMinute) {
    run.f.pass('nextWindow');
  } else if (isFixed(model) && last.status === 429 && !dayRefused(last, untilMs)) {
    run.f.fail('nextWindow', `the window after a 429 admitted ${admitted} of ${perMinute}, then a 429 of the minute quota: the 429 was charged to the next window`, { exchange: last.ex, expected: perMinute, received: admitted });
  } else {
    const dayOut = !last.admitted && dayRefused(last, untilMs);
    const why = last.admitted ? 'the window ended first (a slow target)' : dayOut ? 'then the day quota ran out' : `then a ${last.status}`;
    // The day's answers showed too little left only at the recovery (before it, the minute's): recountInFreshDay could not see it coming.
    const fix = dayOut ? { fix: 'run again in a fresh day window of this key (or with a key whose day quota is unspent)' } : undefined;
    run.f.skip('nextWindow', `the window after the 429 admitted ${admitted} of ${perMinute} (${why}); its headers report the day quota, so the limiter's model is unknown and a 429 charged to it cannot be told from a counter's carried weight`, fix);
  }
  return admitted;
}

/**
 * Waiting only what the 429's Retry-After said gave the whole allowance back at once: no refilling model
 * (a bucket or counter gives back about one request in that time), so the count before it is judged
 * exactly, as a fixed window's (a log's fast count admits exactly the figure too).
 */
const wholeAtOnce = (model: ModelVerdict, nextAdmitted: number | undefined, perMinute: number): ModelVerdict =>
  model.model === 'unknown' && nextAdmitted !== undefined && nextAdmitted >= perMinute
    ? { model: 'fixed', why: `${model.why}; after the 429's Retry-After the next window admitted ${nextAdmitted} at once: no refill allowance` }
    : model;

const minuteOnly = (o: Observation | undefined) => (o?.quota === 'minute' && o.rate ? o : undefined);

function evidenceOf(run: ProbeRun, count: WindowCount, retried?: Retried): ModelEvidence {
  const e: ModelEvidence = {
    windowSeconds: run.ctx.windows.minuteSeconds,
    admitted: count.admitted.filter((o) => minuteOnly(o)).map((o) => ({ sentMs: o.sentLocal, receivedMs: o.receivedLocal, reset: o.rate!.reset })),
  };
  const rej = minuteOnly(count.rejected);
  const rec = minuteOnly(retried?.admitted);
  if (rej) e.refused = { reset: rej.rate!.reset };
  const dateMs = rec && serverDateMs(rec.ex.response.headers);
  if (rec) e.recovery = { reset: rec.rate!.reset, dateS: dateMs === undefined ? undefined : dateMs / 1000 };
  return e;
}

/**
 * When the evidence fits a first-request window and a sliding log alike (model.ts laterNeeded), one more
 * request LATER_MS after the recovery tells them apart, where the window leaves room for it.
 */
/** Room left in a first-request window after the later request, for its answer to come back inside it. */
const LATER_ROOM_MS = 500;

async function modelOf(run: ProbeRun, count: WindowCount, recovery?: Retried | Unwaited): Promise<ModelVerdict> {
  const retried = recovery && 'unwaited' in recovery ? undefined : recovery;
  const e = evidenceOf(run, count, retried);
  const rec = retried?.admitted;
  if (rec && laterNeeded(e) && run.ctx.windows.minuteSeconds * 1000 >= LATER_MS + LATER_ROOM_MS) {
    await waitFor(run.ctx, LATER_MS - (run.ctx.clock.now() - rec.receivedLocal), 'one more request to tell the window model');
    const later = minuteOnly(await observe(run));
    if (later?.admitted) e.later = { reset: later.rate!.reset, afterMs: later.sentLocal - rec.receivedLocal };
  }
  return inferModel(e);
}

/**
 * When the headers do not show the minute allowance (model unknown), a short count may have started from a
 * limiter not yet full (a counter's last window still weighs): count once more after an idle window, so
 * our ambiguity costs time, never a verdict.
 */
async function recountIfShort(run: ProbeRun, count: WindowCount, model: ModelVerdict): Promise<WindowCount> {
  const short = count.admitted.length < run.k.plan.perMinute && !(count.rejected && dayRefused(count.rejected, count.endMs));
  if (!short || model.model !== 'unknown') return count;
  return (await exhaustWindow(run, false, 1)) ?? count;
}

/**
 * The count's day cannot hold the rest of the probe: its 429 was the day quota's (the day ran out before
 * the minute's figure), or its answers report the day with fewer left than the recovery, one later request
 * and the window after the 429 need (minute.ts counts it when the headers report the day). Then the probe
 * waits for the day's end (its one day wait) and counts once more in the fresh day — its one recount, the
 * one recountIfShort would take. Undefined: go on with this count.
 */
async function recountInFreshDay(run: ProbeRun, count: WindowCount, day: DayWait): Promise<WindowCount | undefined> {
  const { perMinute } = run.k.plan;
  const rej = count.rejected;
  if (rej && dayOwned(run, rej) && count.admitted.length < perMinute) {
    if (await waitOutDay429(run, rej, "the count's 429", day)) return undefined;
  } else {
    const left = count.admitted[count.admitted.length - 1]?.quota === 'day' ? dayLeft([...count.admitted, ...(rej ? [rej] : [])]) : undefined;
    if (!left || left.left >= perMinute + 1) return undefined;
    if (await waitOutDay(run, left.endMs, `the count's answers left ${left.left} of the day`, day)) return undefined;
  }
  return (await exhaustWindow(run, false, 1)) ?? undefined;
}

/**
 * Retry-After is judged on a minute 429: the recount's when the count's was the day quota's. With only a
 * day quota's 429 (the day not waited out), by what §8 states of any 429, within the day's window: held
 * to the minute window's end, a correct day's Retry-After read as a fault.
 */
function judgeMinuteRetryAfter(run: ProbeRun, counts: WindowCount[], model: ModelVerdict): void {
  const minute = counts.find((c) => c.rejected && !dayOwned(run, c.rejected));
  if (!minute) judgeRetryAfterConsistent(run, counts[0]!.rejected!, run.ctx.windows.daySeconds);
  else if (isFixed(model)) judgeRetryAfter(run, minute.rejected!, minute.endMs);
  else judgeRetryAfterConsistent(run, minute.rejected!, run.ctx.windows.minuteSeconds);
}

function record(run: ProbeRun, model: ModelVerdict): void {
  run.ctx.models[labelOf(run)] = model;
  run.f.observe('model', model);
}

/** Runs the minute probe; `afterExhaust` runs while the window is spent (the isolation probe). */
export async function probeMinute(run: ProbeRun, afterExhaust?: (count: WindowCount) => Promise<void>): Promise<WindowCount | undefined> {
  const first = await exhaustWindow(run);
  if (!first) {
    run.f.skip('minuteExact', 'the window ended twice before the count did: the target is too slow for this window length', { fix: 'a longer minute window (plans file: windows.minuteSeconds) or a target closer to petcert' });
    return undefined;
  }
  await afterExhaust?.(first);
  const day: DayWait = { used: false };
  const fresh = await recountInFreshDay(run, first, day);
  const count = fresh ?? first;
  if (!count.rejected) {
    const model = await modelOf(run, count);
    record(run, model);
    judgeExact(run, count, model);
    judgeRemaining(run, count, model);
    judgeRemainingCeiling(run);
    for (const key of ['retryAfterPresent', 'retryAfterAccurate', 'recovery', 'nextWindow'] as const) run.f.skip(key, 'no 429 was obtained (the minute quota over-admitted)');
    return count;
  }
  judgeApplicable(run, count.admitted[count.admitted.length - 1], count.rejected);
  const retried = await recover(run, count, day);
  const model = await modelOf(run, count, retried);
  record(run, model);
  const next = judgeRecovery(run, count, retried, model) === 'count' && !('unwaited' in retried) ? await judgeNextWindowByCount(run, retried.admitted!, model) : undefined;
  const exact = fresh ? count : await recountIfShort(run, count, model);
  judgeExact(run, exact, wholeAtOnce(model, next, run.k.plan.perMinute));
  judgeRemaining(run, count, model);
  judgeRemainingCeiling(run);
  judgeMinuteRetryAfter(run, [exact, count], model);
  return count;
}
