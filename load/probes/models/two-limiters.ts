// The recognisers for two limiters that each write their own X-RateLimit-* (the day's on a 200, the minute's
// on its 429): the headers of admitted answers do not show the minute's model, so the count, its 429 and the
// window after it tell a fixed window or a refilling one (bucket-fit.ts), and the Resets of the minute's
// 429s can show no fixed window. Pure: our own clock's times, the plan's figure and the server's Resets.
import { FENCE, refusedTooEarly, resetsNoFixedWindow, type BucketCount } from './bucket-fit.ts';
import { HEADER_RESOLUTION_S, type ModelVerdict } from './minute-count.ts';

export const bucketOf = (limit: number, windowMs: number): string => `a bucket of ${limit} per ${windowMs} ms`;

/** The window after the count's 429, counted: how many it admitted, and whether a minute 429 ended it. */
export interface NextWindow {
  admitted: number;
  refusedByMinute: boolean;
}

/**
 * The window after the count's 429 ended with a minute 429 after fewer admitted than this count: no fixed
 * window does that (each admits its capacity, and this count's window held `n`); a refilling one does.
 */
function nextRefilled(next: NextWindow | undefined, n: number): string | undefined {
  if (!next || !next.refusedByMinute || next.admitted >= n) return undefined;
  return `the window after the 429 admitted ${next.admitted}, then a minute 429: fewer than the count's ${n}, as no fixed window does`;
}

/**
 * What a count above the figure tells of the limiter when the headers do not show the model: its minute
 * 429 came earlier than any bucket of the plan's figure refuses (given the key's rest before it), or the
 * window after it came back faster than a bucket refills (`afterTooSoon`): a fixed window, judged
 * exactly. The window after it refused sooner than this count: a refilling limiter, judged as a bucket.
 */
export function toldByCount(
  c: BucketCount,
  why: string,
  next?: NextWindow,
  afterTooSoon?: string,
): ModelVerdict | undefined {
  const n = c.admitted.length;
  if (refusedTooEarly(c)) {
    const held = `${bucketOf(c.limit, c.windowMs)} would still have held ${FENCE} or more`;
    return { model: 'fixed', why: `${why}; its 429 after ${n} came while ${held}` };
  }
  if (afterTooSoon) return { model: 'fixed', why: `${why}; ${afterTooSoon}` };
  const refilled = nextRefilled(next, n);
  return refilled
    ? { model: 'token-bucket', why: `${why}; ${refilled}: judged as a bucket refilling over the count` }
    : undefined;
}

/**
 * The Resets of minute 429s two of which lie less than a window apart (bucket-fit.ts resetsNoFixedWindow):
 * no fixed window, whose 429s name its end until it ends; a limiter refilling with time.
 */
export function toldByResets(resets: readonly number[], windowSeconds: number): ModelVerdict | undefined {
  const pair = resetsNoFixedWindow(resets, windowSeconds, HEADER_RESOLUTION_S);
  if (!pair) return undefined;
  const why = `minute 429s report Resets ${pair[0]} and ${pair[1]}, less than a ${windowSeconds} s window apart: no fixed window`;
  return {
    model: 'token-bucket',
    why: `${why} (its 429s name its end until it ends), a limiter refilling with time (a bucket, or a log)`,
  };
}
