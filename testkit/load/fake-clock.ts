// Virtual time for fast deterministic probe tests: sleeping advances the clock instantly, but only
// once no request is in flight, so concurrent probes see time pass in a consistent order.
import type { Clock } from '../../core/clock.ts';

export interface FakeClock extends Clock {
  /** Marks a request in flight (time does not jump while any is). */
  busy<T>(work: () => Promise<T>): Promise<T>;
}

export function createFakeClock(startMs: number): FakeClock {
  let t = startMs;
  let inFlight = 0;
  let scheduled = false;
  const timers: Array<{ at: number; seq: number; resolve: () => void }> = [];
  let seq = 0;

  const pump = (): void => {
    scheduled = false;
    if (inFlight > 0 || timers.length === 0) return schedule();
    timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
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
  return {
    now: () => t,
    sleep(ms) {
      return new Promise<void>((resolve) => {
        timers.push({ at: t + Math.max(0, ms), seq: seq++, resolve });
        schedule();
      });
    },
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
