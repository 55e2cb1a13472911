// Which 429 refuses on the day quota, and where that day ends: shared by the fixed-window day probe
// (day.ts) and the one for other limiter models (day-sliding.ts). Pure: the findings these answers
// may carry (a Retry-After the 429's own headers contradict, or beyond a day) are Verdicts for the
// day probe's rules (day-rules.ts).
import type { Unjudged, Verdict } from '../../report/check.ts';
import type { ProbeScope } from './context.ts';
import { failure, silent } from './findings.ts';
import { resetEndMs, retryAfterBeyond, retryAfterEndMs, type Observation } from './observe.ts';
import { RATE_LIMIT_HEADERS } from '../../spec/contract.ts';
import { DATE_SLACK_MS as SLACK_MS } from '../../spec/ratelimit.ts';

/**
 * A 429 refuses on the day quota when its headers say so, or — when they report no quota's window — when
 * its Retry-After reaches past the current minute window and past a whole minute window from its own answer:
 * a minute limiter at a phase or of a model we have not placed (a bucket, a window opened by a first request)
 * may ask up to a window from its refusal, wherever `minuteEndMs` puts the window's end. Headers reporting
 * the minute quota with a plausible Reset are the server's own word: a Retry-After beyond that Reset
 * contradicts it (a finding, `minuteResetContradicts`, and no reason to wait for it).
 */
export function isDay429(run: ProbeScope, o: Observation, minuteEndMs: number): boolean {
  if (o.quota === 'day' && resetEndMs(run, o) !== undefined) return true;
  const minuteReset = o.quota === 'minute' ? resetEndMs(run, o) : undefined;
  const anyMinuteEndMs = Math.max(minuteEndMs, o.serverMs + run.ctx.windows.minuteSeconds * 1000);
  return minuteReset === undefined && retryAfterBeyond(o, anyMinuteEndMs);
}

/**
 * The 429s whose headers report neither quota's figure (X-RateLimit-Limit unreadable, or of no plan figure):
 * not found to be the day's, yet any of them may be, so they cannot show a day that never refused.
 */
export function untoldRefusals(examined: readonly Observation[]): Observation[] {
  return examined.filter((o) => o.quota === 'unknown');
}

/**
 * Unjudged instead of "no day-quota 429" when some 429 did not say which quota refused. `over`: what was
 * admitted over what span, as the finding would have said it.
 */
export function untoldDay(examined: readonly Observation[], over: string): Unjudged | undefined {
  const untold = untoldRefusals(examined);
  if (untold.length === 0) return undefined;
  const limit = untold[0]!.ex.response.headers[RATE_LIMIT_HEADERS.limit];
  const said = limit === undefined ? 'no X-RateLimit-Limit' : `X-RateLimit-Limit ${JSON.stringify(limit)}`;
  return {
    reason:
      `${over}, and ${untold.length} of the day probe's 429s said no quota's figure (${said}): ` +
      "any of them may have been the day quota's, so the day is not shown unenforced",
    fix: 'X-RateLimit-* of the refusing quota, one value each, on every 429 (§8.2; quota.headers.valid judges them)',
  };
}

/** A 429 reporting the minute quota whose Retry-After reaches past that quota's own Reset (retryAfterAccurate). */
export function minuteResetContradicts(run: ProbeScope, o: Observation): readonly Verdict[] {
  const minuteReset = o.quota === 'minute' ? resetEndMs(run, o) : undefined;
  // Past its Reset but within a minute window is a longer wait than needed (accepted); past the window, no minute quota's.
  if (minuteReset === undefined || !retryAfterBeyond(o, o.serverMs + run.ctx.windows.minuteSeconds * 1000))
    return silent;
  const inS = ((minuteReset - o.serverMs) / 1000).toFixed(1);
  return [
    failure(
      `Retry-After ${o.retryAfter!.raw} (${o.retryAfter!.seconds} s) on a 429 whose headers report the minute quota resetting in ${inS} s: the server's own ` +
        `Reset contradicts it (not waited)`,
      {
        exchange: o.ex,
        expected: `≤ ${Math.ceil((minuteReset - o.serverMs + SLACK_MS) / 1000)}`,
        received: o.retryAfter!.seconds,
      },
    ),
  ];
}

/** The day's end by the 429: its day Reset, else its Retry-After — within one day window, else none (not waited). */
export function dayEndOf(run: ProbeScope, o: Observation): number | undefined {
  if (o.quota === 'day') return resetEndMs(run, o);
  const at = retryAfterEndMs(o);
  return at === undefined || at - o.serverMs <= run.ctx.windows.daySeconds * 1000 + SLACK_MS ? at : undefined;
}

/** The day 429's Retry-After beyond the longest window the plans allow (dayRetryAfter): not waited. */
export function retryAfterBeyondDay(run: ProbeScope, o: Observation): readonly Verdict[] {
  const at = o.quota === 'day' ? undefined : retryAfterEndMs(o);
  const { daySeconds } = run.ctx.windows;
  if (at === undefined || at - o.serverMs <= daySeconds * 1000 + SLACK_MS) return silent;
  return [
    failure(
      `the day quota's Retry-After is ${o.retryAfter!.raw} (${o.retryAfter!.seconds} s), beyond the longest window the plans allow (${daySeconds} s): not ` +
        `waited`,
      {
        exchange: o.ex,
        expected: `1..${daySeconds}`,
        received: o.retryAfter!.seconds,
      },
    ),
  ];
}
