// Which 429 refuses on the day quota, and where that day ends: shared by the fixed-window day probe
// (day.ts) and the one for other limiter models (day-sliding.ts).
import type { ProbeRun } from './context.ts';
import { resetEndMs, retryAfterBeyond, retryAfterEndMs, type Observation } from './observe.ts';
import { DATE_SLACK_MS as SLACK_MS } from '../../spec/ratelimit.ts';

/**
 * A 429 refuses on the day quota when its headers say so, or — when they report no quota's window — when
 * its Retry-After reaches past the current minute window. Headers reporting the minute quota with a
 * plausible Reset are the server's own word: a Retry-After beyond that Reset contradicts it (a finding,
 * and no reason to wait for it).
 */
export function isDay429(run: ProbeRun, o: Observation, minuteEndMs: number): boolean {
  if (o.quota === 'day' && resetEndMs(run, o) !== undefined) return true;
  const minuteReset = o.quota === 'minute' ? resetEndMs(run, o) : undefined;
  if (minuteReset === undefined) return retryAfterBeyond(o, minuteEndMs);
  if (retryAfterBeyond(o, minuteReset)) {
    run.f.fail('retryAfterAccurate', `Retry-After ${o.retryAfter!.raw} (${o.retryAfter!.seconds} s) on a 429 whose headers report the minute quota resetting in ${((minuteReset - o.serverMs) / 1000).toFixed(1)} s: the server's own Reset contradicts it (not waited)`, {
      exchange: o.ex, expected: `≤ ${Math.ceil((minuteReset - o.serverMs + SLACK_MS) / 1000)}`, received: o.retryAfter!.seconds,
    });
  }
  return false;
}

/** The day's end by the 429: its day Reset, else its Retry-After — within one day window, else a finding, not a wait. */
export function dayEndOf(run: ProbeRun, o: Observation): number | undefined {
  if (o.quota === 'day') return resetEndMs(run, o);
  const at = retryAfterEndMs(o);
  if (at === undefined || at - o.serverMs <= run.ctx.windows.daySeconds * 1000 + SLACK_MS) return at;
  run.f.fail('dayRetryAfter', `the day quota's Retry-After is ${o.retryAfter!.raw} (${o.retryAfter!.seconds} s), beyond the longest window the plans allow (${run.ctx.windows.daySeconds} s): not waited`, {
    exchange: o.ex, expected: `1..${run.ctx.windows.daySeconds}`, received: o.retryAfter!.seconds,
  });
  return undefined;
}

