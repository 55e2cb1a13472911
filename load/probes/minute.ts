// The minute probe: from a full allowance, a count until the 429 admits the plan's figure, Remaining
// counts down, the 429 carries a consistent Retry-After, and after waiting it requests are admitted again.
// The count, its 429 and that first request tell the limiter's model (model.ts, OBSERVE quota.model);
// fixed-window rules (one Reset for the window, the next window admitted whole) apply only to a fixed one.
import { labelOf, MARGIN_MS, type ProbeRun } from './context.ts';
import { retryUntilAdmitted, type Retried } from './backoff.ts';
import { judgeRemaining, judgeRetryAfter, judgeRetryAfterConsistent } from './judge.ts';
import { retryAfterBeyond, resetEndMs, type Observation } from './observe.ts';
import { DATE_SLACK_MS as SLACK_MS } from '../../spec/ratelimit.ts';
import { allowance, inferModel, isFixed, notFixedHow, notFixedReason, type ModelVerdict } from './model.ts';
import { exhaustWindow, type WindowCount } from './window.ts';

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
    run.f.skip('minuteExact', `429 after ${n} of ${perMinute} with a Retry-After beyond the minute window: the day quota ran out`);
  } else {
    run.f.fail('minuteExact', `429 after only ${n} admitted from a full minute allowance; the plan allows ${perMinute}`, { exchange: count.rejected?.ex, expected: perMinute, received: n });
  }
}

/**
 * Waits out the 429 as told (bounded) — and at least until the last admitted request's Reset, when every
 * model has given the whole allowance back (a sliding log's oldest request ages out first) — then retries.
 */
async function recover(run: ProbeRun, count: WindowCount): Promise<Retried> {
  const { ctx } = run;
  const rej = count.rejected!;
  const minuteMs = ctx.windows.minuteSeconds * 1000;
  const toEnd = count.endMs - rej.serverMs + MARGIN_MS;
  const told = rej.retryAfter && rej.retryAfter.seconds <= ctx.windows.minuteSeconds + 1 ? rej.retryAfter.seconds * 1000 + MARGIN_MS : toEnd;
  const last = count.admitted[count.admitted.length - 1];
  const lastReset = last ? resetEndMs(run, last) : undefined;
  // On the server's clock (the latest it can be), so the wait never ends before that Reset.
  const wholeAt = lastReset === undefined ? undefined : ctx.serverClock.toLocalNotBefore(lastReset + MARGIN_MS);
  const whole = wholeAt === undefined ? 0 : wholeAt - ctx.clock.now();
  return retryUntilAdmitted(run, Math.min(Math.max(told, whole), minuteMs + SLACK_MS), minuteMs + SLACK_MS);
}

function judgeRecovery(run: ProbeRun, count: WindowCount, retried: Retried, model: ModelVerdict): void {
  const { f } = run;
  const rej = count.rejected!;
  const admitted = retried.admitted;
  if (!admitted) {
    f.fail('recovery', `still 429 after waiting Retry-After and ${retried.refusals.length} tries with exponential backoff; gave up to spare the key`, { exchange: retried.refusals[retried.refusals.length - 1]?.ex });
    f.skip('nextWindow', 'no recovery');
    return;
  }
  if (retried.refusals.length > 0) {
    f.fail('recovery', `429 again after waiting Retry-After (${rej.retryAfter?.raw ?? 'absent'}); admitted only after ${retried.refusals.length} backoff tries`, { exchange: retried.refusals[0]!.ex });
    f.skip('nextWindow', 'the first request after the wait was refused');
    return;
  }
  f.pass('recovery');
  if (rej.quota === 'minute' && rej.rate && admitted.quota === 'minute' && admitted.rate && admitted.rate.reset <= rej.rate.reset) {
    f.fail('reset', `after the reset at ${rej.rate.reset} the next request still reports Reset ${admitted.rate.reset}`, { exchange: admitted.ex });
  }
  if (!isFixed(model)) return f.skip('nextWindow', notFixedReason(model), notFixedHow(model));
  if (admitted.quota !== 'minute' || !admitted.rate) return f.skip('nextWindow', 'the headers of the next window report the day quota');
  if (admitted.rate.remaining !== admitted.rate.limit - 1) {
    f.fail('nextWindow', `the first request of the window after a 429 reports Remaining ${admitted.rate.remaining}, expected ${admitted.rate.limit - 1}: the 429 was charged to the next window`, {
      exchange: admitted.ex, expected: admitted.rate.limit - 1, received: admitted.rate.remaining,
    });
  } else f.pass('nextWindow');
}

function modelOf(run: ProbeRun, count: WindowCount, retried?: Retried): ModelVerdict {
  const minute = (o: Observation | undefined) => (o?.quota === 'minute' && o.rate ? o : undefined);
  const rej = minute(count.rejected);
  const rec = minute(retried?.admitted);
  return inferModel({
    windowSeconds: run.ctx.windows.minuteSeconds,
    admitted: count.admitted.filter((o) => minute(o)).map((o) => ({ sentMs: o.sentLocal, receivedMs: o.receivedLocal, reset: o.rate!.reset })),
    ...(rej ? { refused: { reset: rej.rate!.reset } } : {}),
    ...(rec ? { recovery: { reset: rec.rate!.reset } } : {}),
  });
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

function record(run: ProbeRun, model: ModelVerdict): void {
  run.ctx.models[labelOf(run)] = model;
  run.f.observe('model', model);
}

/** Runs the minute probe; `afterExhaust` runs while the window is spent (the isolation probe). */
export async function probeMinute(run: ProbeRun, afterExhaust?: (count: WindowCount) => Promise<void>): Promise<WindowCount | undefined> {
  const count = await exhaustWindow(run);
  if (!count) {
    run.f.skip('minuteExact', 'the window ended twice before the count did: the target is too slow for this window length');
    return undefined;
  }
  await afterExhaust?.(count);
  if (!count.rejected) {
    const model = modelOf(run, count);
    record(run, model);
    judgeExact(run, count, model);
    judgeRemaining(run, count, model);
    for (const key of ['retryAfterPresent', 'retryAfterAccurate', 'recovery', 'nextWindow'] as const) run.f.skip(key, 'no 429 was obtained (the minute quota over-admitted)');
    return count;
  }
  const retried = await recover(run, count);
  const model = modelOf(run, count, retried);
  record(run, model);
  judgeExact(run, await recountIfShort(run, count, model), model);
  judgeRemaining(run, count, model);
  if (isFixed(model)) judgeRetryAfter(run, count.rejected, count.endMs);
  else judgeRetryAfterConsistent(run, count.rejected, run.ctx.windows.minuteSeconds);
  judgeRecovery(run, count, retried, model);
  return count;
}
