// The key's day running out inside a probe that needs minute windows (compressed windows, a
// distant target, a key used earlier the same day). No minute window gives a spent day back: only the
// day's end does, which its 429's Retry-After (or the day quota's Reset) names. A probe waits for it once
// when the wait fits --max-wait and the run's bound (waits.ts declares it); else the checks that needed
// the day are left unjudged with the fix, never failed: a retry before the day's end proves nothing.
import { fewest, most } from '../../core/extent.ts';
import type { Unjudged } from '../../report/check.ts';
import { keySamples, localPast, notWaited, serverNow, waitFor, type ProbeRun, type ProbeScope } from './context.ts';
import { dayEndOf } from './day-refusal.ts';
import { quotaOf, retryAfterBeyond, type Observation } from './observe.ts';
import { DATE_SLACK_MS as SLACK_MS, RESET_ROUNDING_MS } from '../../spec/ratelimit.ts';

/** The fix for a check left unjudged because the key's day ran out (the minute and burst rules say it). */
export const DAY_OUT_FIX = 'run again in a fresh day window of this key (or with a key whose day quota is unspent)';

/** A wait the day's end asked for that the run could not take: the reason and the fix, for an unjudged check. */
export interface Unwaited {
  unwaited: Unjudged & { fix: string };
}

/** The one day wait a probe may take (waits.ts): spent once taken. */
export interface DayWait {
  used: boolean;
}

/**
 * A 429 the day quota owns, so that only the day's end lifts it: its headers report the day quota, or,
 * reporting neither quota, its Retry-After reaches past any minute window and stays within a day's. A
 * 429 reporting the minute quota is the minute's, whatever its Retry-After says (quota.retry-after.accurate
 * judges that): never a reason to wait a day.
 */
export function dayOwned(run: ProbeScope, o: Observation): boolean {
  if (o.status !== 429) return false;
  if (o.quota !== 'unknown') return o.quota === 'day';
  const { minuteSeconds, daySeconds } = run.ctx.windows;
  return (
    retryAfterBeyond(o, o.serverMs + minuteSeconds * 1000) && o.retryAfter!.seconds <= daySeconds + SLACK_MS / 1000
  );
}

/** What a set of day answers leaves: the fewest Remaining among those naming the latest Reset, in any order they came. */
function latestDayLeft(
  rates: readonly { reset: number; remaining: number }[],
): { left: number; reset: number } | undefined {
  if (rates.length === 0) return undefined;
  const reset = most(rates.map((r) => r.reset));
  return { left: fewest(rates.filter((r) => r.reset === reset).map((r) => r.remaining)), reset };
}

/**
 * Requests left in the key's current day window, by the answers reporting the day quota: the fewest
 * Remaining among those of the latest day (its Reset), in any order they came back.
 */
export function dayLeft(answers: readonly Observation[]): { left: number; endMs: number } | undefined {
  const latest = latestDayLeft(answers.filter((o) => o.quota === 'day' && o.rate).map((o) => o.rate!));
  return latest && { left: latest.left, endMs: latest.reset * 1000 };
}

/**
 * The key's day as its latest answers of the day quota (every probe's) leave it: fewer left than `need`, its
 * Reset still ahead. A probe about to send `need` requests at once waits for that end first (waitOutDay), as a
 * day 429 would ask, rather than send them into a day that refuses them all.
 */
export function daySpent(run: ProbeRun, need: number): { left: number; endMs: number } | undefined {
  const rates = keySamples(run).flatMap((s) =>
    quotaOf(s.limit, run.k.plan) === 'day' && s.reset !== undefined && s.remaining !== undefined
      ? [{ reset: s.reset, remaining: s.remaining }]
      : [],
  );
  const latest = latestDayLeft(rates);
  if (!latest) return undefined;
  // No 429 holds the key here: a Reset rounded down names an end up to a second before the day's.
  const endMs = latest.reset * 1000 + RESET_ROUNDING_MS;
  return latest.left < need && endMs > serverNow(run.ctx) ? { left: latest.left, endMs } : undefined;
}

/**
 * Waits until the day ends at `endMs` (server ms; from a day 429, `dayEndOf`), when this probe's day wait
 * is unspent and the run affords it; otherwise says why not (`what` names the evidence).
 */
export async function waitOutDay(
  run: ProbeRun,
  endMs: number | undefined,
  what: string,
  budget: DayWait,
): Promise<Unwaited | undefined> {
  const { ctx } = run;
  const local = endMs === undefined ? undefined : localPast(ctx, endMs);
  const ms = local === undefined ? undefined : Math.max(0, local - ctx.clock.now());
  const why =
    ms === undefined
      ? 'it does not say when the day ends'
      : budget.used
        ? 'this probe already waited for one day window'
        : notWaited(ctx, ms, 'the wait for the day window to end');
  if (why) {
    const seconds = ms === undefined ? undefined : Math.ceil(ms / 1000);
    const fix = `${seconds === undefined ? '' : `--max-wait ${seconds} or more (with time for it), or `}a key whose day quota is unspent`;
    return { unwaited: { reason: `${what}: the key's day quota ran out, and ${why}`, fix } };
  }
  budget.used = true;
  await waitFor(ctx, ms!, 'the wait for the day window to end');
  return undefined;
}

/** waitOutDay for a day quota's 429. */
export const waitOutDay429 = (
  run: ProbeRun,
  o: Observation,
  what: string,
  budget: DayWait,
): Promise<Unwaited | undefined> =>
  waitOutDay(
    run,
    dayEndOf(run, o),
    `${what} was the day quota's (Retry-After ${o.retryAfter?.raw ?? 'absent'})`,
    budget,
  );
