// Time is injected so probes and runners work with real windows, compressed windows and fake clocks.
export interface Clock {
  /** Local wall-clock ms. Rate-limit logic converts it to server time with a measured offset. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
};
