// Which limiter model the evidence of one minute count shows. §8 gives quotas per minute
// and day and a Reset "at which the limit resets"; it does not say the windows are fixed. So the probes
// judge every model on what §8 states, and the rules that only hold for fixed windows (one Reset for the
// whole window, the next window's full allowance) only where this says "fixed". Pure: a function of the
// count, its 429 and the first request after waiting it out.
//
// What each model shows (reference/limiter-models.ts implements each):
//   fixed            every admitted response of the count reports one Reset R, the 429 reports R, and the
//                    first request after it reports R + one window.
//   sliding-counter  the 429 points past R: the count just made still weighs in the next window.
//   sliding-log      Reset = now + window: it moves with time (or the recovery's Reset is more than one
//                    window after R). A log reporting its OLDEST request's expiry instead (the limits
//                    library's moving window, slowapi) looks like a first-request window until the
//                    recovery's window ends: then it still counts the requests sent after the recovery.
//   token-bucket     Reset = when the bucket is full again: each request pushes it further, so it rises
//                    faster than time (by about window / limit per request), and once full again one
//                    request pushes it less than a window ahead.

import type { LimiterModelName } from './names.ts';

export interface ModelEvidence {
  windowSeconds: number;
  /** Admitted responses of one count that report the minute quota, in order: when sent and answered (our clock, ms) and Reset (Unix s). */
  admitted: ReadonlyArray<{ sentMs: number; receivedMs: number; reset: number }>;
  /** The 429 that ended the count, when it reports the minute quota; `inWindow`: the 429s of that window (the count's waves and retries). */
  refused?: { reset: number; inWindow?: number };
  /** The first admitted response after waiting the 429 out, when it reports the minute quota (dateS: its Date, Unix s). */
  recovery?: { reset: number; dateS?: number; remaining?: number; limit?: number };
  /** One more admitted response, at least `afterMs` (server time) after the recovery (`laterNeeded`). */
  later?: { reset: number; afterMs: number };
  /**
   * One more admitted response once the recovery's window has ended while the later request is still less
   * than a window old (`afterNeeded`): its Remaining and Limit, and whether its timing could tell (`afterFits`).
   */
  after?: { remaining: number; limit: number; fits: boolean };
}

export interface ModelVerdict {
  model: LimiterModelName;
  /** Fixed windows: aligned to a clock (the epoch, the server's start), or opened by the key's first request after the last ended. */
  start?: 'aligned' | 'first-request';
  /** The evidence in one sentence, for the report (OBSERVE quota.model) and skip reasons. */
  why: string;
  /** When the model is left unknown for want of resolution: what would tell it (the rules it gates are unjudged). */
  fix?: string;
  /**
   * A sliding log shown to count each request for a whole window (a bucket would have refilled:
   * afterNeeded and stillCounted): within a window it gives nothing back (`allowanceFor`).
   */
  wholeWindow?: true;
}

/** Reset and Date are whole seconds (§8, RFC 9110 §5.6.7): a window this long or shorter puts every second on its grid. */
export const HEADER_RESOLUTION_S = 1;

/**
 * Reset (whole seconds) rose more than this faster than time over the count: each request pushed it. A
 * sliding log's Reset rises with time only (by 1 when the count straddles a second: rare in a fast count,
 * and then it is told a bucket, which is judged by the same rules).
 */
export const BUCKET_RISE_S = 0.5;

export function inferModel(e: ModelEvidence): ModelVerdict {
  const first = e.admitted[0];
  const last = e.admitted[e.admitted.length - 1];
  if (!first || !last || !e.refused)
    return { model: 'unknown', why: 'the count and its 429 do not both report the minute quota in X-RateLimit-*' };
  const resets = e.admitted.map((a) => a.reset);
  const r1 = first.reset;
  const rMax = Math.max(...resets);
  if (e.refused.reset > rMax) {
    return {
      model: 'sliding-counter',
      why: `the 429 reports Reset ${e.refused.reset}, past the ${rMax} the admitted requests reported: the count still weighs after that window ends`,
    };
  }
  const rise = rMax - r1;
  // The longest the server can have taken between the two (our clock: only differences matter).
  const elapsed = (last.receivedMs - first.sentMs) / 1000;
  if (rise - elapsed > BUCKET_RISE_S) {
    return {
      model: 'token-bucket',
      why: `Reset rose ${rise} s over ${elapsed.toFixed(2)} s of requests: each request pushed it further (the time until a bucket is full again)`,
    };
  }
  const L = e.windowSeconds;
  if (rise === 0 && e.refused.reset === r1) {
    if (!e.recovery)
      return { model: 'unknown', why: 'no request was admitted after the 429 to show where the next window ends' };
    if (e.recovery.reset === r1 + L) return movedWithTime(e, L) ?? loggedAfter(e, r1) ?? weighedOrFixed(e, r1);
    if (e.later && e.later.afterMs >= LATER_MS && e.later.reset === e.recovery.reset) {
      const kept = `the request after it opened a window ending ${e.recovery.reset}, still reported ${(e.later.afterMs / 1000).toFixed(1)} s later`;
      const one = `one Reset (${r1}) for the whole count and its 429; ${kept}`;
      if (e.after?.fits && e.after.remaining <= e.after.limit - 2) return movingWindow(one, e.after);
      const why = `${one}: windows open at a key's first request after the last one ended (express-rate-limit, rate-limiter-flexible)`;
      return { model: 'fixed', start: 'first-request', why: e.after?.fits ? `${why}; ${freshAfter(e.after)}` : why };
    }
  }
  // The recovery came after the last admitted Reset: a sliding log then reports that time + a whole window.
  if (e.recovery && e.recovery.reset - rMax <= L) {
    if (rise === 0 && e.refused.reset === r1 && stillCounted(e.recovery)) {
      const { reset, remaining, limit } = e.recovery;
      const seen = `one Reset (${r1}) for the whole count and its 429; once it passed, the request after it reported`;
      const aged = "the count's first requests aged out, its later ones still counted";
      const why = `${seen} Remaining ${remaining} of ${limit}, Reset ${reset}: ${aged} (${OLDEST_LOG}); a bucket is full again by then`;
      return { model: 'sliding-log', why, wholeWindow: true };
    }
    return {
      model: 'token-bucket',
      why: `once the whole allowance was back (Reset ${rMax}), one request pushed Reset only to ${e.recovery.reset}: the time one token takes`,
    };
  }
  if (rise === 0 && e.refused.reset === r1 && e.recovery && onGridOnly(e)) {
    return {
      model: 'unknown',
      why:
        `one Reset (${r1}) for the whole count and its 429, and the request after it reported ${e.recovery.reset}: a fixed aligned window (its wait ran ` +
        `into a later window) and a sliding log alike, since with ${L} s windows every whole-second Reset lies on the window grid`,
      fix: `windows of at least ${HEADER_RESOLUTION_S + 1} s (plans file: windows.minuteSeconds), whose Resets tell a fixed window from a sliding log`,
    };
  }
  if (rise > 0 || e.recovery) {
    return {
      model: 'sliding-log',
      why:
        `Reset moves with time: ${r1} to ${rMax} within the count, ` +
        `${e.recovery ? `${e.recovery.reset} for the request after the 429 (more than a window after ${rMax})` : 'no request after the 429'}`,
    };
  }
  return {
    model: 'token-bucket',
    why: `the 429 reports Reset ${e.refused.reset}, before the ${r1} the admitted requests reported`,
  };
}

/**
 * The request LATER_MS after the recovery reports a Reset later than the recovery's, yet short of the next
 * window's: the Reset moves with time (a sliding log reporting its oldest request's expiry, rounded down),
 * which an aligned window's never does.
 */
function movedWithTime(e: ModelEvidence, L: number): ModelVerdict | undefined {
  const rec = e.recovery!.reset;
  if (!e.later || e.later.afterMs < LATER_MS || e.later.reset <= rec || e.later.reset >= rec + L) return undefined;
  return {
    model: 'sliding-log',
    why:
      `the recovery reported Reset ${rec}, one window after the count's, and a request ${(e.later.afterMs / 1000).toFixed(1)} s later ${e.later.reset}: ` +
      `Reset moves with time, as no fixed window's does`,
  };
}

/**
 * Once the recovery's window ended, a request still counted the later one (afterNeeded): a sliding
 * log whose Reset is its oldest request's expiry, rounded down onto the aligned grid.
 */
function loggedAfter(e: ModelEvidence, r1: number): ModelVerdict | undefined {
  if (!e.later || !e.after?.fits || e.after.remaining > e.after.limit - 2) return undefined;
  return movingWindow(`one Reset (${r1}) for the whole count and its 429, the recovery's one window later`, e.after);
}

/**
 * The next window one window later: a fixed aligned window, unless its first answer reports less than the
 * whole allowance by more than the last window's 429s (were they charged to it): the last window's
 * admitted count still weighs there, a sliding window counter (the previous window's count weighted by
 * the time left), and the fixed-window rules do not bind it.
 */
function weighedOrFixed(e: ModelEvidence, r1: number): ModelVerdict {
  const { remaining, limit } = e.recovery!;
  const charged = e.refused?.inWindow ?? 1;
  if (remaining !== undefined && limit !== undefined && remaining < limit - 1 - charged) {
    const why =
      `one Reset (${r1}) for the whole count and its 429; the next window's first answer reports Remaining ${remaining} of ${limit}, less than its ` +
      `${charged} 429s could take: the last window's count still weighs (a sliding window counter)`;
    return { model: 'sliding-counter', why };
  }
  return {
    model: 'fixed',
    start: 'aligned',
    why: `one Reset (${r1}) for the whole count and its 429, and the next window's exactly one window later`,
  };
}

/**
 * Whether every Reset after the count lies on the grid of windows through the count's Reset, and the
 * headers' resolution is as coarse as a window: a fixed aligned window whose recovery came a window late
 * (the wait to the latest a whole-second Date allows) shows exactly this, and so does a sliding log,
 * whose Reset (now + window, whole seconds) is on that grid too. Only longer windows can tell them apart,
 * or the recovery's own Date: a Reset more than a window after it ends no window that holds it (a log's,
 * rounded up).
 */
function onGridOnly(e: ModelEvidence): boolean {
  const L = e.windowSeconds;
  const r1 = e.admitted[0]!.reset;
  const { reset, dateS } = e.recovery!;
  const resets = [reset, ...(e.later ? [e.later.reset] : [])];
  const pastItsWindow = dateS !== undefined && reset - dateS > L;
  return L <= HEADER_RESOLUTION_S && !pastItsWindow && resets.every((r) => r > r1 && (r - r1) % L === 0);
}

/**
 * A fast count (one Reset) and a recovery more than a window after it: a window opened by the recovery
 * (first-request windows) or a sliding log (Reset = now + window) alike. One more request this long after
 * the recovery tells them apart: a fixed window still reports the same Reset, a log's has moved by a second.
 */
export const LATER_MS = 1100;

export function laterNeeded(e: ModelEvidence): boolean {
  const resets = e.admitted.map((a) => a.reset);
  if (!e.refused || !e.recovery || resets.length === 0) return false;
  const r1 = resets[0]!;
  // One window later too: an aligned window and a log whose Reset (its oldest request's expiry) is rounded down alike.
  return Math.max(...resets) === r1 && e.refused.reset === r1 && e.recovery.reset >= r1 + e.windowSeconds;
}

/**
 * A first-request window and a log whose Reset is its OLDEST request's expiry (the `limits` library's moving
 * window, slowapi `strategy="moving-window"`: MovingWindowRateLimiter.get_window_stats) answer alike until
 * the recovery's window ends: both report the recovery's Reset on the later request. One more request once
 * that window has ended, while the later one is under a window old, tells them apart: a fixed window opened
 * afresh (Remaining Limit − 1), the log still counts the later request (Limit − 2 at most). A bucket would
 * have refilled whole by then, so this log is told from one too.
 */
export function afterNeeded(e: ModelEvidence): boolean {
  return laterNeeded(e) && e.later !== undefined && e.later.afterMs >= LATER_MS && e.later.reset === e.recovery!.reset;
}

/**
 * When the after request tells: it reached the server after the recovery's window ended (sent a window after
 * the recovery's answer came back) and before the later request's ended (its answer came back within a
 * window of the later request's sending). Durations only, of our own sends: the windows' length is the plan's.
 */
export interface AfterTimes {
  recoveryReceivedMs: number;
  laterSentMs: number;
  afterSentMs: number;
  afterReceivedMs: number;
}

export function afterFits(sent: AfterTimes, windowSeconds: number): boolean {
  const windowMs = windowSeconds * 1000;
  return sent.afterSentMs >= sent.recoveryReceivedMs + windowMs && sent.afterReceivedMs < sent.laterSentMs + windowMs;
}

const OLDEST_LOG =
  "a sliding log whose Reset is its oldest request's expiry (the limits library's moving window, slowapi)";

/** A request after waiting out the count's Reset that still finds most of the count counted (two or more besides it). */
const stillCounted = (r: NonNullable<ModelEvidence['recovery']>): boolean =>
  r.remaining !== undefined && r.limit !== undefined && r.remaining <= r.limit - 2;

const freshAfter = (a: NonNullable<ModelEvidence['after']>): string =>
  `once that window ended a request found it fresh (Remaining ${a.remaining} of ${a.limit})`;

function movingWindow(one: string, a: NonNullable<ModelEvidence['after']>): ModelVerdict {
  const still = `once that window ended a request still counted the later one (Remaining ${a.remaining} of ${a.limit})`;
  const why = `${one}; ${still}: ${OLDEST_LOG}`;
  return { model: 'sliding-log', why, wholeWindow: true };
}
