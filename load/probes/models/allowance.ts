// What a correct limiter of a told model may admit beyond its figure over a span: the trait `overSpan`
// (catalog.ts), under the run's reading (reading.ts).
import { refillCounts, type DeclaredModel } from '../reading.ts';
import { traitsOfName, type LimiterModelName } from './catalog.ts';
import type { ModelVerdict } from './minute-count.ts';

/**
 * Requests beyond the limit a correct limiter of this model may admit over `spanMs` (the longest the
 * requests can have been apart on the server): none for fixed windows (the count stays in one window);
 * for the others the plan's rate over the span, which a counter or bucket refills as time passes (a
 * sliding log admits none within a window, but whole-second Resets cannot always tell it from a bucket).
 * A count from a full state must admit at least the limit and at most this more.
 */
export function allowance(model: LimiterModelName, limit: number, windowMs: number, spanMs: number): number {
  if (traitsOfName(model).overSpan === 'nothing') return 0;
  return Math.floor((limit * Math.max(0, spanMs)) / windowMs);
}

/** What a bucket of `limit` per window refills over `spanMs`: the most any refilling model gives back. */
export const refillOver = (limit: number, windowMs: number, spanMs: number): number =>
  allowance('token-bucket', limit, windowMs, spanMs);

/**
 * `allowance` for a told model, under the run's reading (reading.ts): the window reading counts no refill
 * within one window's length. A log shown to count each request a whole window (`wholeWindow`) admits at
 * most `limit` over any span shorter than a window, whatever state it started in: the count's own requests
 * all still count at its end (an earlier one aging out only frees a place the count did not have). `oneEnd`:
 * every admitted answer named one end of the limiter's own window (reading.ts namesOneEnd), so under the window
 * reading a counter's crossing of its window end, the one refill it allows, did not happen.
 */
export function allowanceFor(
  v: ModelVerdict,
  limit: number,
  windowMs: number,
  spanMs: number,
  declared: DeclaredModel | undefined,
  oneEnd = false,
): number {
  if (v.wholeWindow && spanMs < windowMs) return 0;
  // A counter keeps its allowance across its own windows' ends: not where the answers show none was crossed.
  if (oneEnd && declared === undefined && spanMs < windowMs) return 0;
  return refillCounts(declared, v.model, windowMs, spanMs) ? allowance(v.model, limit, windowMs, spanMs) : 0;
}
