// The day probe's fast path. When the day 429 arrives, this key's own samples (every probe records
// them, in server time) tell how many requests the ending day window held. If that is exactly the
// plan's figure, the day quota is proven without waiting for a fresh day; if it is less (someone
// else used the key today, or a sample sits too near the day boundary to place), the slow path counts
// a whole fresh day.
import type { ProbeRun } from './context.ts';
import { judgeRetryAfter } from './judge.ts';
import { SLACK_MS, type Observation } from './observe.ts';

export interface DayTally {
  admitted: number;
  /** 429s before the final one. */
  rejected: number;
  ambiguous: boolean;
}

export function tallyDay(run: ProbeRun, startMs: number, endMs: number, final: Observation): DayTally {
  const label = run.seriesName.slice(run.seriesName.indexOf(':') + 1);
  const samples = Object.entries(run.ctx.series)
    .filter(([name]) => name.slice(name.indexOf(':') + 1) === label)
    .flatMap(([, list]) => list);
  const tally: DayTally = { admitted: 0, rejected: -1, ambiguous: false };
  for (const s of samples) {
    if (Math.abs(s.t - startMs) < SLACK_MS || s.t > final.serverMs + SLACK_MS) tally.ambiguous = true;
    if (s.t < startMs || s.t > endMs) continue;
    if (s.status === 429) tally.rejected++;
    else if (s.status >= 200 && s.status < 300) tally.admitted++;
  }
  return tally;
}

/** Judges the day quota from the tally; false when the tally cannot decide (take the slow path). */
export function judgeFromTally(run: ProbeRun, endMs: number, final: Observation): boolean {
  const { f, k, ctx } = run;
  const { perDay } = k.plan;
  const dayMs = ctx.windows.daySeconds * 1000;
  const t = tallyDay(run, endMs - dayMs, endMs, final);
  if (t.ambiguous || t.admitted + Math.max(0, t.rejected) < perDay) {
    if (t.admitted > perDay) {
      f.fail('dayExact', `${t.admitted} requests admitted in one day window; the plan allows ${perDay}`, { exchange: final.ex, expected: perDay, received: t.admitted });
      return true;
    }
    return false;
  }
  const consumes = t.admitted < perDay && t.admitted + t.rejected === perDay;
  if (t.admitted === perDay || consumes) f.pass('dayExact');
  else f.fail('dayExact', `${t.admitted} requests admitted in one day window before the day 429; the plan allows ${perDay}`, { exchange: final.ex, expected: perDay, received: t.admitted });
  // The day's end came from this 429, so only the bounds are independent: past this minute, within a day.
  judgeRetryAfterBounds(run, final, endMs);
  if (t.rejected > 0) f.observe('rejectedConsume', { consumesDayQuota: consumes, admittedInDay: t.admitted, rejectedInDay: t.rejected });
  else f.skip('rejectedConsume', 'no 429 fell in this day window before the day quota ran out');
  f.observe('dayHeaders', { on429: final.quota });
  return true;
}

function judgeRetryAfterBounds(run: ProbeRun, final: Observation, endMs: number): void {
  const dayS = run.ctx.windows.daySeconds;
  if (final.quota === 'day' && final.rate) return judgeRetryAfter(run, final, endMs, { present: 'dayRetryAfter', accurate: 'dayRetryAfter' });
  if (!final.retryAfter) return judgeRetryAfter(run, final, endMs, { present: 'dayRetryAfter', accurate: 'dayRetryAfter' });
  const s = final.retryAfter.seconds;
  if (s < 1 || s > dayS + SLACK_MS / 1000) {
    run.f.fail('dayRetryAfter', `the day quota's Retry-After is ${final.retryAfter.raw} (${s} s): not within one day window of ${dayS} s`, { exchange: final.ex, expected: `1..${dayS}`, received: s });
  } else run.f.pass('dayRetryAfter');
}
