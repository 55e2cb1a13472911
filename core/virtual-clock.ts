// Virtual time: sleeping advances the clock at once, in the order the sleeps end, but only once no
// request is in flight, so concurrent probes see time pass in one consistent order. Tests run probes
// on it over simulated limiters; `petcert quota --rejudge` runs them on it over a recorded journal.
import type { Clock } from './clock.ts';

export interface VirtualClock extends Clock {
  /** Marks a request in flight (time does not jump while any is). */
  busy<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Resolves at `atMs` (at once when past): among timers ending the same ms, the lower `rank` first, then
   * every unranked one in the order asked. A replay ranks answers in the order they arrived.
   */
  sleepUntil(atMs: number, rank?: number): Promise<void>;
  /** Moves time on to `atMs` (never back): a replay shows a reading the recorded run made. */
  advance(atMs: number): void;
}

export function createVirtualClock(startMs: number): VirtualClock {
  let t = startMs;
  let inFlight = 0;
  let scheduled = false;
  const timers: Array<{ at: number; rank: number; seq: number; resolve: () => void }> = [];
  let seq = 0;

  // setImmediate runs once every promise chain has settled: each sleeper is then waiting on its timer.
  const pump = (): void => {
    scheduled = false;
    if (inFlight > 0 || timers.length === 0) return schedule();
    timers.sort((a, b) => a.at - b.at || a.rank - b.rank || a.seq - b.seq);
    const next = timers.shift()!;
    t = Math.max(t, next.at);
    next.resolve();
    schedule();
  };
  function schedule(): void {
    if (!scheduled && timers.length > 0) {
      scheduled = true;
      setImmediate(pump);
    }
  }
  const until = (at: number, rank = Number.MAX_SAFE_INTEGER): Promise<void> =>
    new Promise<void>((resolve) => {
      timers.push({ at: Math.max(t, at), rank, seq: seq++, resolve });
      schedule();
    });
  return {
    now: () => t,
    sleep: (ms) => until(t + Math.max(0, ms)),
    sleepUntil: until,
    advance: (at) => void (t = Math.max(t, at)),
    async busy(work) {
      inFlight++;
      try {
        return await work();
      } finally {
        inFlight--;
      }
    },
  };
}
