// The minute probe: a fresh window admits exactly perMinute, Remaining counts down, the 429 carries an
// accurate Retry-After, and after waiting it the next window is admitted whole.
import { MARGIN_MS, type ProbeRun } from './context.ts';
import { retryUntilAdmitted } from './backoff.ts';
import { judgeRemaining, judgeRetryAfter } from './judge.ts';
import { retryAfterBeyond, type Observation } from './observe.ts';
import { DATE_SLACK_MS as SLACK_MS } from '../../spec/ratelimit.ts';
import { exhaustWindow, type WindowCount } from './window.ts';

/** A 429 of the day quota: its headers say so, or its Retry-After reaches past the minute window. */
const dayRefused = (o: Observation, minuteEndMs: number): boolean => o.quota === 'day' || retryAfterBeyond(o, minuteEndMs);

function judgeExact(run: ProbeRun, count: WindowCount): void {
  const { perMinute } = run.k.plan;
  const n = count.admitted.length;
  const last = count.admitted[n - 1] ?? count.rejected;
  if (count.over) {
    run.f.fail('minuteExact', `${n} requests admitted in one minute window; the plan allows ${perMinute}`, { exchange: last?.ex, expected: perMinute, received: n });
  } else if (n === perMinute) {
    run.f.pass('minuteExact');
  } else if (count.rejected && dayRefused(count.rejected, count.endMs)) {
    run.f.skip('minuteExact', `429 after ${n} of ${perMinute} with a Retry-After beyond the minute window: the day quota ran out`);
  } else {
    run.f.fail('minuteExact', `429 after only ${n} admitted in a fresh minute window; the plan allows ${perMinute}`, { exchange: count.rejected?.ex, expected: perMinute, received: n });
  }
}

/** Waits out the 429 as told (bounded), then checks recovery and that the new window is whole. */
async function judgeRecovery(run: ProbeRun, count: WindowCount): Promise<void> {
  const { f, ctx } = run;
  const rej = count.rejected!;
  const minuteMs = ctx.windows.minuteSeconds * 1000;
  const toEnd = count.endMs - rej.serverMs + MARGIN_MS;
  const told = rej.retryAfter && rej.retryAfter.seconds <= ctx.windows.minuteSeconds + 1 ? rej.retryAfter.seconds * 1000 + MARGIN_MS : toEnd;
  const retried = await retryUntilAdmitted(run, told, minuteMs + SLACK_MS);
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
  if (admitted.quota !== 'minute' || !admitted.rate) {
    f.skip('nextWindow', 'the headers of the next window report the day quota');
    return;
  }
  if (admitted.rate.remaining !== admitted.rate.limit - 1) {
    f.fail('nextWindow', `the first request of the window after a 429 reports Remaining ${admitted.rate.remaining}, expected ${admitted.rate.limit - 1}: the 429 was charged to the next window`, {
      exchange: admitted.ex, expected: admitted.rate.limit - 1, received: admitted.rate.remaining,
    });
  } else f.pass('nextWindow');
  if (rej.quota === 'minute' && rej.rate && admitted.rate.reset <= rej.rate.reset) {
    f.fail('reset', `after the reset at ${rej.rate.reset} the next window still reports Reset ${admitted.rate.reset}`, { exchange: admitted.ex });
  }
}

/** Runs the minute probe; `afterExhaust` runs while the window is spent (the isolation probe). */
export async function probeMinute(run: ProbeRun, afterExhaust?: (count: WindowCount) => Promise<void>): Promise<WindowCount | undefined> {
  const count = await exhaustWindow(run);
  if (!count) {
    run.f.skip('minuteExact', 'the window ended twice before the count did: the target is too slow for this window length');
    return undefined;
  }
  judgeExact(run, count);
  judgeRemaining(run, count);
  await afterExhaust?.(count);
  if (!count.rejected) {
    for (const key of ['retryAfterPresent', 'retryAfterAccurate', 'recovery', 'nextWindow'] as const) run.f.skip(key, 'no 429 was obtained (the minute quota over-admitted)');
    return count;
  }
  judgeRetryAfter(run, count.rejected, count.endMs);
  await judgeRecovery(run, count);
  return count;
}
