// Could a continuous bucket of the plan's minute figure have given what a count saw? Asked when the headers
// do not show the minute quota's model (two limiters, the day's headers on a 200: minute-count.ts 'unknown') and a
// count from a full allowance admitted more than the figure, but no more than a bucket refills over it: a
// token bucket or GCRA (capacity the figure, refilled at the figure per window) does that at a distance,
// and so does a fixed window over-admitting. Pure: the answers' own times on our clock, where only
// differences matter (the server saw each request between our send and its answer).
//
// A bucket's tokens at any time t, from a time T0 on (network calculus, the greedy shaper):
//   min( tokens(T0) + rate·(t − T0) − admitted(T0, t),  min over s in (T0, t] of C + rate·(t − s) − admitted[s, t) )
// It refuses only below one token. So a refusal where every term is at least FENCE (one token, and one
// more for fence posts: a token may arrive inside any span, GCRA rounds) was no bucket's; nor was a
// window after a 429 admitting more than the bucket, then under one token, could have refilled.
// Limit: a bucket refilled in chunks lags a continuous one by a chunk; read as no bucket, it is judged as
// a fixed window (spec/GAPS.md, limiter model).

/** When one request was sent and answered (our clock, ms). */
export interface Timed {
  sentMs: number;
  receivedMs: number;
}

export interface BucketCount {
  /** The plan's minute figure (the bucket's capacity) and the window it is refilled over. */
  limit: number;
  windowMs: number;
  /** Our clock from the key's last answer to the count's first request, when known (window.ts `restMs`). */
  restMs?: number;
  /** The count's admitted requests, the first sent first (a wave of one: waves.ts). */
  admitted: readonly Timed[];
  /** The count's 429, of the minute quota. */
  refused: Timed;
}

/** Tokens below one refuse; one more token of slack for fence posts. */
export const FENCE = 2;

/** A bucket at rest this long is full whatever it held before: the count started from its whole allowance. */
export const startedFull = (c: Pick<BucketCount, 'restMs' | 'windowMs'>): boolean =>
  c.restMs !== undefined && c.restMs >= c.windowMs;

/**
 * The count's 429 came while every bucket of the plan's figure still held FENCE tokens or more: given how
 * long the key rested before the count (at least the refill over it, up to the capacity) and the latest
 * each admitted request can have reached the server. Then the limiter did not refill as a bucket does.
 */
export function refusedTooEarly(c: BucketCount): boolean {
  const rate = c.limit / c.windowMs;
  const x = c.refused;
  const first = c.admitted[0];
  if (!first) return false;
  // Those that may have reached the server before the refusal (the others cannot have drained it).
  const before = c.admitted.filter((a) => a.sentMs < x.receivedMs);
  const atStart = Math.min(c.limit, rate * Math.max(0, c.restMs ?? 0));
  if (atStart + rate * Math.max(0, x.sentMs - first.receivedMs) - before.length < FENCE) return false;
  // From any later moment s the bucket was full: at most those answered from s on were taken since.
  const receivedFrom = (s: number): number => before.filter((b) => b.receivedMs >= s).length;
  return before.every(
    (a) => c.limit + rate * Math.max(0, x.sentMs - a.receivedMs) - receivedFrom(a.receivedMs) >= FENCE,
  );
}

/**
 * After the minute's 429 (under one token then), the recovery and the window after it admitted `admitted`
 * requests by `lastMs` (our clock, the latest the last of them was answered): more than a bucket refills
 * in that time. A fixed window's end gives the whole allowance back at once; a bucket only what it refilled.
 */
export function admittedTooSoon(o: {
  limit: number;
  windowMs: number;
  refused: Timed;
  admitted: number;
  lastMs: number;
}): boolean {
  const refilled = (o.limit / o.windowMs) * Math.max(0, o.lastMs - o.refused.sentMs);
  return o.admitted >= refilled + FENCE;
}

/**
 * Two Resets of minute 429s more than nothing and at most a window less the headers' resolution apart: no
 * fixed window reports that. Each of its 429s reports the end of its window (rounded the same way each
 * time, §8.2 "at which the limit resets"), one instant for the whole window; the next window opens no
 * sooner than that end (aligned or at a key's first request), so its end, and any rounding of it, lies a
 * whole window later or more. A bucket's 429 reports when one token is back, a log's when its oldest
 * request ages out: both move with time. The pair, lower first; undefined when none (or windows too short).
 */
export function resetsNoFixedWindow(
  resets: readonly number[],
  windowSeconds: number,
  resolutionS: number,
): [number, number] | undefined {
  const sorted = [...new Set(resets)].sort((a, b) => a - b);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]! - sorted[i - 1]! <= windowSeconds - resolutionS) return [sorted[i - 1]!, sorted[i]!];
  }
  return undefined;
}
