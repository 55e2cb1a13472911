// Finding a fresh minute window and counting what it admits. The window's end is learned from the
// server: X-RateLimit-Reset when the headers report the minute quota, else a minute 429's Retry-After.
import type { ProbeRun } from './context.ts';
import { sleepUntilServer } from './context.ts';
import { leftServerMs, resetEndMs, retryAfterEndMs, type Observation } from './observe.ts';
import { DATE_SLACK_MS as SLACK_MS, RESET_ROUNDING_MS } from '../../spec/ratelimit.ts';
import { observe } from './request.ts';
import { refillOver } from './models/allowance.ts';
import { COUNT_SHARE, waveSource, widthFor } from './waves.ts';

export interface FreshWindow {
  /** Our first request of the window, when it was already fresh (saves waiting for the next one). */
  first?: Observation;
  /** Server ms at which this window ends. */
  endMs: number;
  /** Our clock once every request before the count had been answered (absent when `first` starts the count). */
  quietLocal?: number;
}

/** The window after the 429, counted from the recovery on (its headers did not show the minute allowance). */
export interface NextWindowCount {
  admitted: number;
  /** The last answer of the count: a 429, or the last admitted when the window ended first. */
  last: Observation;
}

export interface WindowCount {
  admitted: Observation[];
  /** The 429 that ended the window's admissions. */
  rejected?: Observation;
  /** More than the plan's figure was admitted (and more than any refill explains); sending stopped there. */
  over: boolean;
  /**
   * The count's backstop ended it: no 429, yet no more admitted than a bucket refills over the count (one
   * refilling as fast as the waves drain it, at this latency). Neither exact nor over: could not judge.
   */
  capped?: boolean;
  endMs: number;
  /**
   * Our clock from the key's last answer before the count to the count's first request (no request of the
   * key in between): a bucket holds at least what it refilled over it (models/bucket-fit.ts). Absent when unknown.
   */
  restMs?: number;
}

/** When a minute 429 asks to come back (server ms): its Retry-After, when that is no longer than a minute window. */
const minuteRetryEnd = (run: ProbeRun, o: Observation): number | undefined =>
  o.status === 429 && o.retryAfter && o.retryAfter.seconds <= run.ctx.windows.minuteSeconds + 1
    ? retryAfterEndMs(o)
    : undefined;

/** End of the minute window an observation belongs to, when the server told us. */
export function minuteEnd(run: ProbeRun, o: Observation): number | undefined {
  const end = o.quota === 'minute' ? resetEndMs(run, o) : undefined;
  return end ?? minuteRetryEnd(run, o);
}

/** Time a whole window's requests take in waves (waves.ts), from the first exchange's duration, with room to spare. */
function neededMs(run: ProbeRun, o: Observation): number {
  const rtt = Math.max(1, o.receivedLocal - o.sentLocal);
  const count = run.k.plan.perMinute + 2;
  return Math.ceil(count / widthFor(count, rtt, run.ctx.windows.minuteSeconds * 1000)) * rtt * 2 + 300;
}

/**
 * Finds the start of a fresh window. `idleWindows` more windows are waited out idle after its end: a
 * sliding window counter still weighs the last window's count at the next one's start (models/minute-count.ts).
 * `lateMs` more are waited past it: a Reset rounded down, or a Date from another clock, names an end
 * up to that much early.
 */
export async function findFreshWindow(
  run: ProbeRun,
  allowFirst = true,
  idleWindows = 0,
  onBoundary = false,
  lateMs = 0,
): Promise<FreshWindow> {
  const minuteMs = run.ctx.windows.minuteSeconds * 1000;
  let o = await observe(run);
  let end = minuteEnd(run, o);
  if (end !== undefined && allowFirst && isFull(o) && end - o.serverMs > Math.max(neededMs(run, o), minuteMs / 2)) {
    return { first: o, endMs: end };
  }
  // The headers do not report the minute window: spend the rest of it to learn its end from the 429 (into
  // the next window when a slow target's answers let this one end first: a guessed end would misplace it).
  // In waves (waves.ts): one at a time, a distant target's window ends before its allowance does, and each
  // window spent that way costs the key's day a minute's figure for nothing (erl at 150 ms: 83 requests).
  const { perMinute } = run.k.plan;
  let spent = 1;
  const source = waveSource(run, perMinute + 1, () => perMinute + 1 - spent);
  for (let i = 0; end === undefined && i <= 2 * perMinute + 2; i++) {
    o = await source.next();
    spent++;
    end = minuteEnd(run, o);
  }
  // Last resort (no Reset, no usable Retry-After): one full window length from here.
  end ??= o.serverMs + minuteMs;
  // Every request sent so far has been answered (waves are awaited whole): the key is quiet from here.
  const quietLocal = run.ctx.clock.now();
  // Idle windows count from the end of the window holding our last request (a counter's 429 reports a later
  // Reset: a whole window after our last request). `onBoundary` (a fixed window whose headers do not show it):
  // in whole windows from the end the server named, so that the fresh window starts on its boundary.
  if (idleWindows > 0 && onBoundary) {
    while (end <= o.serverMs) end += minuteMs;
    end += idleWindows * minuteMs;
  } else if (idleWindows > 0) end = Math.max(end, o.serverMs + minuteMs) + idleWindows * minuteMs;
  // The 429 hold (send.ts) keeps the count's first request until this 429's Retry-After has passed. Released
  // too late in the window after `end` (a Retry-After of the window's length, from a 429 just before the end
  // it names), the count would run into that window's end: it starts a window later, once the next end can
  // have passed on our reading of the server's clock. A 429 of the day (its Retry-After past a minute window)
  // is the day's to wait out (day-out.ts).
  const heldUntil = roomForCount(minuteMs) ? minuteRetryEnd(run, o) : undefined;
  let late = lateMs;
  if (heldUntil !== undefined && heldUntil > end + lateMs + minuteMs - END_UNCERTAINTY_MS - countMs(minuteMs)) {
    end += minuteMs;
    late = Math.max(lateMs, END_UNCERTAINTY_MS);
  }
  // `lateMs`: past the named end by a Reset's rounding or a proxy's Date, when a burst sent at it straddled.
  await sleepUntilServer(run.ctx, end + late);
  return { endMs: end + minuteMs, quietLocal };
}

/** How far a window's true end may lie from the end its Reset names, on our reading of the server's clock. */
const END_UNCERTAINTY_MS = RESET_ROUNDING_MS + SLACK_MS;

/** The longest a count takes: its waves fill at most COUNT_SHARE of a window (waves.ts). */
const countMs = (windowMs: number): number => COUNT_SHARE * windowMs;

/**
 * A window holds a count between the latest its end can be and the earliest the next can be: one of a few
 * seconds does not (whole-second Resets, a proxy's Date), and moving the count a window later proves nothing.
 */
const roomForCount = (windowMs: number): boolean => windowMs - 2 * END_UNCERTAINTY_MS - countMs(windowMs) > 0;

/** The shortest window, in whole seconds, with room for a count between two uncertain ends (`roomForCount`). */
export const ROOMY_WINDOW_S = Math.floor((2 * END_UNCERTAINTY_MS) / (1 - COUNT_SHARE) / 1000) + 1;

/**
 * The count's first request left when the 429 hold released it, more than a Reset's rounding after the probe
 * sent it (a Retry-After, not the window's end, timed the count); its answers report another quota (no Reset
 * places them in one window); and an end its 429 names, to a second, may fall among its requests: the one
 * before that 429's window, or that window's own (admissions answered after the 429 in the server's order).
 */
export function heldAcrossEnd(count: WindowCount, windowMs: number): boolean {
  const first = count.admitted[0];
  const heldMs = first?.ex.heldMs ?? 0;
  if (!first || heldMs <= RESET_ROUNDING_MS || count.admitted.every((a) => a.quota === 'minute')) return false;
  // On the server's clock: when the hold let the first request go, and the count's last answer.
  const released = leftServerMs(first);
  const lastMs = Math.max(...count.admitted.map((a) => a.serverMs));
  const ends = [count.endMs - windowMs, count.endMs];
  return ends.some((end) => released < end + RESET_ROUNDING_MS && lastMs > end - RESET_ROUNDING_MS);
}

/** The whole minute allowance is there: the response reports the minute quota with Remaining = Limit - 1. */
const isFull = (o: Observation): boolean =>
  o.admitted && o.quota === 'minute' && o.rate!.remaining === o.rate!.limit - 1;

/**
 * A fixed window rolled over mid-count: Reset jumped a whole window (also for a window opened by a first
 * request: it opens after the last one ended). Not Remaining going back up: a bucket refills while a
 * distant target answers (models/minute-count.ts), and its Reset only creeps.
 */
function rolledOver(run: ProbeRun, prev: Observation | undefined, o: Observation): boolean {
  if (!prev?.rate || !o.rate || prev.quota !== 'minute' || o.quota !== 'minute') return false;
  return o.rate.reset - prev.rate.reset >= run.ctx.windows.minuteSeconds;
}

export type CountOutcome = WindowCount | 'rolled-over' | 'not-full';

/**
 * Counts admissions from a fresh start until the 429. Sends at most the limit, plus what a limiter that
 * refills could have admitted by then (models/allowance.ts), plus one. 'rolled-over': a fixed window ended
 * before the count did (slow target); 'not-full': the count did not start with the whole allowance.
 */
export async function countWindow(run: ProbeRun, fresh: FreshWindow, afterIdle = false): Promise<CountOutcome> {
  const { perMinute } = run.k.plan;
  const minuteMs = run.ctx.windows.minuteSeconds * 1000;
  const admitted = fresh.first ? [fresh.first] : [];
  let endMs = fresh.endMs;
  let firstEnd = fresh.first?.quota === 'minute' ? resetEndMs(run, fresh.first) : undefined;
  let prev = fresh.first;
  let lastAnswer = fresh.first?.receivedLocal ?? Number.NEGATIVE_INFINITY;
  // In waves when the round trip needs it, read in the server's order; never more than the limit plus one in flight.
  // Room: what a limiter that refills could still admit by now, plus the one that should be refused.
  const room = (): number => {
    const spanMs = admitted[0] ? run.ctx.clock.now() - admitted[0].sentLocal : 0;
    return perMinute + 1 + refillOver(perMinute, minuteMs, spanMs) - admitted.length;
  };
  const source = waveSource(run, perMinute + 2, room, { drains: true });
  // Measured before the first request goes out: never longer than the key's true rest.
  const restMs = fresh.first || fresh.quietLocal === undefined ? undefined : run.ctx.clock.now() - fresh.quietLocal;
  // At most the limit plus what a refilling limiter gives back over the count, plus one (`over` below);
  // the iteration cap is a backstop only.
  for (let i = 0; i <= 4 * perMinute + 4; i++) {
    const o = await source.next();
    const oEnd = o.quota === 'minute' ? resetEndMs(run, o) : undefined;
    // Remaining above Limit-1 is a fault remainingCountdown (judge.ts) reports; below it, the allowance was not
    // whole. After an idle window every model has its whole allowance back: less is counted, and reported so.
    if (
      !afterIdle &&
      admitted.length === 0 &&
      o.admitted &&
      o.quota === 'minute' &&
      o.rate!.remaining < o.rate!.limit - 1
    )
      return 'not-full';
    if (rolledOver(run, prev, o)) return 'rolled-over';
    if (oEnd !== undefined && firstEnd === undefined) endMs = firstEnd = oEnd;
    else if (oEnd === undefined && o.serverMs > endMs + SLACK_MS) return 'rolled-over';
    if (o.status === 429) return { admitted, rejected: o, over: false, endMs, restMs };
    admitted.push(o);
    prev = o;
    // To the latest answer of those admitted (observe.ts localSpan): in a wave read in the server's order, one
    // answered later than `o` may have reached the server later, while the limiter refilled.
    lastAnswer = Math.max(lastAnswer, o.receivedLocal);
    const spanMs = lastAnswer - admitted[0]!.sentLocal;
    if (admitted.length > perMinute + refillOver(perMinute, minuteMs, spanMs))
      return { admitted, over: true, endMs, restMs };
  }
  return { admitted, over: false, capped: true, endMs, restMs };
}

/** A fresh window counted whole: tried again when a fixed window ended mid-count, or with an idle window when the count did not start full. */
export async function exhaustWindow(run: ProbeRun, allowFirst = true, idleFirst = 0): Promise<WindowCount | undefined> {
  let idle = idleFirst;
  for (let attempt = 0; attempt < 3; attempt++) {
    const fresh = await findFreshWindow(run, allowFirst && attempt === 0, idle);
    const count = await countWindow(run, fresh, idle > 0);
    if (typeof count === 'object') return count;
    if (count === 'not-full') idle = 1;
  }
  return undefined;
}
