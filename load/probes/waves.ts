// The probes' one pacing primitive. Counting with the concurrency the latency needs: a window's requests sent
// one after the other take count × round trip, which a distant server (150 ms with 3 s windows) cannot fit in a
// window. Requests go out in waves sized so that the count takes at most a share of the window, or on a steady
// pace; the answers of one wave are read in the server's order, from their own values, never in arrival order.
// A count that has what it needs from a window waits for the next through `nextWindow`.
import { localPast, MARGIN_MS, waitFor, type ProbeRun } from './context.ts';
import { leftLocal, type Observation } from './observe.ts';
import { refillOver } from './models/allowance.ts';
import { resetNoiseMs } from './reading.ts';
import { observe } from './request.ts';

/** At most this share of a window goes to counting its requests; the rest is margin at its boundaries. */
export const COUNT_SHARE = 0.25;

/** Requests in flight at once so that `count` of them take at most COUNT_SHARE of the window at this round trip. */
export function widthFor(count: number, rttMs: number, windowMs: number): number {
  return Math.max(1, Math.ceil((count * Math.max(1, rttMs)) / (windowMs * COUNT_SHARE)));
}

/**
 * A Reset to the millisecond: the digits past it are a server's float arithmetic, not an order (the limits
 * library's sliding-window counter writes one window end as 1795902853.0000117, .0000105 and .000011 in
 * one wave), while a bucket's or a log's Reset grows by a refill interval or more per request.
 */
const resetMs = (reset: number): number => Math.round(reset * 1000);

/**
 * Each answer's Reset read as the earliest of those within `noiseMs` of the next (a chain): that counter reads
 * the server's clock twice for one Reset, which a busy server spreads over milliseconds (.0000103 and
 * .0079842 for one end), while a bucket's consecutive Resets stay about a refill interval apart (noiseMs is a quarter of one).
 */
function noiseless(wave: readonly Observation[], noiseMs: number): Map<Observation, number> {
  const key = new Map<Observation, number>();
  const rated = wave.filter((o) => o.rate).sort((a, b) => a.rate!.reset - b.rate!.reset);
  let first: number | undefined;
  let prev: number | undefined;
  for (const o of rated) {
    const ms = o.rate!.reset * 1000;
    if (prev === undefined || ms - prev > noiseMs) first = resetMs(o.rate!.reset);
    key.set(o, first!);
    prev = ms;
  }
  return key;
}

/**
 * The answers of one wave in the server's order, by their own evidence: admitted before refused; among
 * admitted answers reporting the same quota, the earlier Reset first (a bucket's and a log's Reset grow
 * with each request), then the most Remaining (it counts down); the rest in the order they were sent.
 * `noiseMs`: Resets this close to each other are one (a quarter of the quota's refill interval, `resetNoiseMs`).
 */
export function serverOrder(wave: readonly Observation[], noiseMs = 0): Observation[] {
  const rank = (o: Observation): number => (o.admitted ? 0 : 1);
  const key = noiseless(wave, noiseMs);
  return [...wave].sort((a, b) => {
    if (rank(a) !== rank(b)) return rank(a) - rank(b);
    if (a.rate && b.rate && a.quota === b.quota && a.quota !== 'unknown') {
      return key.get(a)! - key.get(b)! || b.rate.remaining - a.rate.remaining;
    }
    return a.sentLocal - b.sentLocal;
  });
}

/** The most a wave widens past what the round trip needs (a bucket refilling as fast as the waves take). */
const BOOST_MAX = 8;

/**
 * The round trip that sizes the next wave. On a steady pace, without a request's wait in the 429 hold (send.ts):
 * that says nothing of the server's pace, and the pace waits out the 429 itself. Counts within a window size their
 * waves on the whole exchange, hold included, as the recorded journals (testkit/journals) were sent.
 */
const waveRttMs = (o: Observation, steady: boolean): number => o.receivedLocal - (steady ? leftLocal(o) : o.sentLocal);

/** What a 429 asks to wait (ms); 0 for any other answer. */
const retryAfterMs = (o: Observation): number => (o.status === 429 && o.retryAfter ? o.retryAfter.seconds * 1000 : 0);

export interface WaveSource {
  /** The next answer, in the server's order; sends a new wave when the last one is used up. */
  next(): Promise<Observation>;
  /** Forget the answers not yet taken (the window they belong to is over for the caller). */
  drop(): void;
}

export interface WaveOptions {
  /**
   * One count until a 429: past `count` with every answer admitted, a refilling limiter is giving back what the
   * waves take: wider waves (up to BOOST_MAX times) drain it; `room` still caps each wave.
   */
  drains?: boolean;
  /**
   * A steady pace: a wave of n requests is followed by the next no sooner than n × `gapMs` after it was sent,
   * and no sooner than the longest Retry-After among its 429s.
   */
  gapMs?: number;
}

/**
 * Every paced probe's requests: observations in waves, each holding at most `room()` requests (what the
 * caller may still send in this window) and at most what the measured round trip needs (`widthFor`); the
 * first holds one. The caller decides when a window is over (`drop`) and waits for the next one.
 */
export function waveSource(run: ProbeRun, count: number, room: () => number, options: WaveOptions = {}): WaveSource {
  const windowMs = run.ctx.windows.minuteSeconds * 1000;
  const noiseMs = resetNoiseMs(run.k.plan.perMinute, windowMs);
  let queue: Observation[] = [];
  let rttMs: number | undefined;
  let sent = 0;
  let boost = 1;
  // The last wave's width, when it was sent, and the longest Retry-After among its 429s (the steady pace).
  let last: { width: number; at: number; retryMs: number } | undefined;
  // Once boosted, the limiter is shown refilling: it also gives back what it refills while the wave is in
  // flight (its requests reach it over up to a round trip), which a wave sized to `room` alone never drains.
  const cap = (rtt: number): number =>
    Math.max(1, room() + (boost > 1 ? refillOver(run.k.plan.perMinute, windowMs, rtt) : 0));
  const paceWait = async (): Promise<void> => {
    if (options.gapMs === undefined || !last) return;
    const ms = Math.max(last.retryMs, last.width * options.gapMs - (run.ctx.clock.now() - last.at));
    await waitFor(run.ctx, ms, 'pacing at the minute rate');
  };
  return {
    async next() {
      if (queue.length === 0) {
        await paceWait();
        const width = rttMs === undefined ? 1 : Math.min(widthFor(count, rttMs, windowMs) * boost, cap(rttMs));
        // Read only when pacing: a recorded run replays every reading of the clock in order (journal/replay.ts).
        const at = options.gapMs === undefined ? 0 : run.ctx.clock.now();
        const wave = await Promise.all(Array.from({ length: width }, () => observe(run)));
        sent += width;
        rttMs = Math.max(...wave.map((o) => waveRttMs(o, options.gapMs !== undefined)));
        if (options.gapMs !== undefined) last = { width, at, retryMs: Math.max(...wave.map(retryAfterMs)) };
        if (options.drains && sent > count && wave.every((o) => o.admitted)) boost = Math.min(BOOST_MAX, boost * 2);
        queue = serverOrder(wave, noiseMs);
      }
      return queue.shift()!;
    },
    drop() {
      queue = [];
    },
  };
}

/** One minute window of a paced count: what it admitted, where it ends (server ms), and the answer of its first admission (our ms). */
export interface PacedWindow {
  admitted: number;
  endMs?: number;
  firstAdmittedLocal?: number;
}

/** Counts an answer into its window: only admissions count. */
export function countInto(w: PacedWindow, o: Observation): void {
  if (!o.admitted) return;
  w.firstAdmittedLocal ??= o.receivedLocal;
  w.admitted++;
}

/**
 * Waits for the next minute window once the caller is done with `w` (its figure admitted, or a 429 when
 * `after429`), forgetting the answers not yet taken: until its end on the latest reading of the server's clock,
 * or one window after the answer of its first admission when that comes first. Any window of one minute's length
 * that counted that request has ended by then, wherever it started; the Reset read at the latest can be seconds
 * later (a Reset a second after the window's expiry as slowapi's, a Date a second stale as uvicorn's): paced by
 * the Reset alone, a 2 s window would take up to twice its length, the pace would fall under the day's figure
 * per day, and an unenforced day would look like a target too slow to judge (spec/GAPS.md, "The server's
 * Date"). After a 429, its own end. Returns the next window, empty.
 */
export async function nextWindow(
  run: ProbeRun,
  source: WaveSource,
  w: PacedWindow,
  after429: boolean,
): Promise<PacedWindow> {
  const { ctx } = run;
  source.drop();
  const byReset = (w.endMs === undefined ? undefined : localPast(ctx, w.endMs)) ?? ctx.clock.now();
  const counted = after429 ? undefined : w.firstAdmittedLocal;
  const byCount = counted === undefined ? byReset : counted + ctx.windows.minuteSeconds * 1000 + MARGIN_MS;
  await waitFor(ctx, Math.min(byReset, byCount) - ctx.clock.now(), 'the wait for a window to end');
  return { admitted: 0 };
}
