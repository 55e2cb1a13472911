// The recogniser that rules a fixed day out when the minute probe told no model: the day's own answers
// (their Resets, the Remaining the day started with, the 429's Retry-After). Pure: samples in, a why out.
import type { Sample } from '../../../report/model.ts';
import { DATE_SLACK_MS as SLACK_MS } from '../../../spec/ratelimit.ts';
import { retryAfterEndMs, type Observation } from '../observe.ts';

/** This key's samples across its probes, what it spent before them, and the plan's day. */
export interface DayEvidence {
  samples: readonly Sample[];
  spentBefore: number;
  perDay: number;
  daySeconds: number;
}

/**
 * Evidence against a fixed day window (why), from this key's answers reporting the day quota within a day before
 * the day's 429. A fixed day — aligned to a clock, or opened by the key's first request after the last one
 * ended (express-rate-limit, rate-limiter-flexible) — reports one Reset (the 429's), or an earlier day's
 * that ended by the time this one began. Read from the answers' own values, never from the order our
 * concurrent requests happened to arrive in.
 */
export function fixedDayUnshown(e: DayEvidence, final: Observation | undefined): string | undefined {
  if (!final) return undefined;
  const { daySeconds, perDay, samples } = e;
  const admittedDay = samples.filter(
    (s) => s.status < 300 && s.limit === perDay && s.reset !== undefined && s.t > final.serverMs - daySeconds * 1000,
  );
  // The latest answer of the same day (its Reset not yet passed when the 429 came).
  const latest = admittedDay
    .filter((s) => s.reset! * 1000 >= final.serverMs - SLACK_MS)
    .reduce<(typeof admittedDay)[number] | undefined>((a, b) => (a === undefined || b.t >= a.t ? b : a), undefined);
  if (final.rate && final.quota === 'day') {
    const finalReset = final.rate.reset;
    const odd = admittedDay.find((s) => s.reset !== finalReset && s.reset! > finalReset - daySeconds);
    if (odd)
      return `an admitted answer reported Reset ${odd.reset}, the day's 429 ${finalReset}: a day window ending less than ${daySeconds} s before it`;
    // A fixed day starts whole. The answer reporting the most Remaining is the first the server counted
    // (whatever order our concurrent requests arrived in): only this key's requests counted before it
    // explain less than perDay - 1. Admitted ones without the day's Reset may have raced it (a burst);
    // refusals (some servers count them: quota.rejected.consume) only when answered before it.
    const inDay = admittedDay.filter((s) => s.reset === finalReset);
    const first = inDay.reduce<Sample | undefined>(
      (a, b) => (a === undefined || b.remaining! > a.remaining! ? b : a),
      undefined,
    );
    if (first) {
      const startMs = (finalReset - daySeconds) * 1000;
      const before =
        samples.filter(
          (s) =>
            s !== final.sample &&
            !inDay.includes(s) &&
            s.t >= startMs - SLACK_MS &&
            (s.status < 300 ? s.t <= first.t + SLACK_MS : s.status === 429 && s.t < first.t),
        ).length + e.spentBefore;
      if (first.remaining! < perDay - 1 - before) {
        return (
          `the day window ending ${finalReset} did not start whole: the first answer the server counted in it (the most Remaining) reports Remaining ` +
          `${first.remaining}, after at most ${before} of this key's requests in it (a limiter that carries the last day over)`
        );
      }
    }
  }
  const end = retryAfterEndMs(final);
  if (latest && end !== undefined && Math.abs(end - latest.reset! * 1000) > SLACK_MS) {
    return `the day's 429 asks to wait until ${Math.round(end / 1000)}, while the day quota's answers reported Reset ${latest.reset}`;
  }
  return undefined;
}
