// A day quota that refills (a token bucket or GCRA day), told from its own headers when the minute probe
// did not tell the model (--only day, or two limiters whose counts report the day). §8.1 says "N requests
// per day" without saying over which day-long interval (spec/GAPS.md, "Requests per day"): a bucket of
// perDay refilled perDay a day admits up to 2 × perDay within one day window, as fixed windows do across a
// boundary. Such a day is judged as the day of any refilling limiter is (day-rules.ts): never more than
// perDay plus what it refilled over the span of the requests (allowance.ts), the refusal only once
// the key spent perDay, and a consistent Retry-After. An unenforced day still fails: it admits past that.
import { most } from '../../../core/extent.ts';
import { RESET_ROUNDING_MS } from '../../../spec/ratelimit.ts';
import type { ProbeScope } from '../context.ts';
import { BUCKET_RISE_S, HEADER_RESOLUTION_S, type ModelVerdict } from './minute-count.ts';
import type { Observation } from '../observe.ts';

/**
 * The day's Reset rose faster than time between admitted answers reporting the day quota, with no step of
 * a whole window between them (a fixed day's next window): each request pushed it, as a bucket's "full
 * again" time is. Measured on our clock from the first one's send to the last one's answer (the longest
 * the server can have taken), beyond what whole-second Resets add (a fixed day's Reset rounded from a
 * jittering end, a sliding log's now + a day): a fixed day keeps one Reset, a log's moves with time only.
 */
export function dayRefills(own: readonly Observation[], daySeconds: number): string | undefined {
  const day = own.filter((o) => o.admitted && o.quota === 'day' && o.rate);
  const jumpS = daySeconds - RESET_ROUNDING_MS / 1000;
  const slackS = HEADER_RESOLUTION_S + BUCKET_RISE_S;
  // rise - elapsed = (reset_i - answered_i) + (sent_j - reset_j): the best j so far decides for every i, so
  // one pass (a day's search holds up to three days of answers: every pair would be quadratic).
  const lead = (o: Observation): number => o.sentLocal / 1000 - o.rate!.reset;
  let from = 0;
  let best = day.length > 0 ? lead(day[0]!) : -Infinity;
  for (let i = 1; i < day.length; i++) {
    const b = day[i]!;
    if (b.rate!.reset - day[i - 1]!.rate!.reset >= jumpS) [from, best] = [i, -Infinity];
    if (b.rate!.reset - b.receivedLocal / 1000 + best > slackS) {
      // Any earlier answer of the chain: a bucket's rise outpaces time within a burst, not across the pauses
      // between minute windows (where it refills). The first such answer names the figures.
      for (let j = from; j < i; j++) {
        const rise = b.rate!.reset - day[j]!.rate!.reset;
        const elapsed = (b.receivedLocal - day[j]!.sentLocal) / 1000;
        if (rise - elapsed > slackS) {
          const pushed = 'each request pushed it further (a day refilled continuously)';
          return `the day quota's Reset rose ${rise} s over ${elapsed.toFixed(2)} s of requests: ${pushed}`;
        }
      }
    }
    best = Math.max(best, lead(b));
  }
  return undefined;
}

/**
 * The day's 429 reports a Reset before one an admitted answer of its day reported (by more than whole
 * seconds' rounding): a limiter that tells "full again" when it admits and "one more fits" when it refuses
 * (minute-count.ts tells a minute bucket so). A fixed day's 429 reports its window's end, never before the Reset
 * of an answer it admitted. A sliding log shows it too: judged by the refilling day's rules, which allow it
 * more, never less.
 */
export function refusalBeforeReset(own: readonly Observation[], final: Observation): string | undefined {
  if (final.quota !== 'day' || !final.rate) return undefined;
  const latest = most(own.filter((o) => o.admitted && o.quota === 'day' && o.rate).map((o) => o.rate!.reset));
  if (!(latest - final.rate.reset > HEADER_RESOLUTION_S)) return undefined;
  const back = 'the day gives one request back before it is full again (a day refilled continuously)';
  return `the day's 429 reports Reset ${final.rate.reset}, before the ${latest} its admitted answers reported: ${back}`;
}

/**
 * The model a day its own Resets (and its 429's, `final`, when there was one) show refilling is judged by
 * (day-rules.ts), or undefined.
 */
export function refillingDay(
  run: ProbeScope,
  own: readonly Observation[],
  final?: Observation,
): ModelVerdict | undefined {
  const why = dayRefills(own, run.ctx.windows.daySeconds) ?? (final && refusalBeforeReset(own, final));
  if (!why || run.k.plan.perMinute === run.k.plan.perDay) return undefined;
  return { model: 'token-bucket', why };
}

/**
 * The one request after waiting out the day's 429 (`asked`: how long it asked) reports the day with only a
 * few back, not a whole fresh day window: a day refilled continuously. A fixed day is whole again then.
 */
export function gaveBackFew(after: Observation, perDay: number, asked: string): ModelVerdict | undefined {
  if (!after.admitted || after.quota !== 'day' || !after.rate || after.rate.remaining >= perDay - 1) return undefined;
  const waited = `after waiting out the day's 429 (${asked}), the next request reported the day quota`;
  const back = 'the day gave back a few requests, not a whole fresh day window (a day refilled continuously)';
  return { model: 'token-bucket', why: `${waited} with Remaining ${after.rate.remaining} of ${perDay}: ${back}` };
}
