// Time is injected so probes and runners work with real windows, compressed windows and fake clocks.
export interface Clock {
  /** Local wall-clock ms. Rate-limit logic converts it to server time with a measured offset. */
  now(): number;
  /** Resolves once `now()` has advanced by at least `ms` (a wait measured on this clock is never short). */
  sleep(ms: number): Promise<void>;
}

/**
 * setTimeout counts on libuv's monotonic millisecond clock, Date.now() on the wall clock: their ticks do not
 * line up, so a timer of 1,100 ms ends 1,099 ms later by Date.now() about one time in eight. A probe that
 * waits LATER_MS and then requires its request to go LATER_MS after the last answer (load/probes/models/minute-count.ts)
 * would read a first-request fixed window as a sliding log. Sleep again for what
 * is left: at most a millisecond or two more, never less.
 */
function sleepAtLeast(ms: number): Promise<void> {
  const until = Date.now() + Math.max(0, ms);
  return new Promise((resolve) => {
    const tick = (): void => {
      const left = until - Date.now();
      if (left > 0) setTimeout(tick, left);
      else resolve();
    };
    tick();
  });
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: sleepAtLeast,
};
