// A run's deadline: past it nothing is sent (the layer), and no wait may reach past it (`sleep`), so a
// run ends within its deadline plus the one request in flight then (its timeout). `refuse` says what
// the caller's run makes of it (conform: RUN_TIMEOUT; the quota probes: the probe is cut short).
import type { Clock } from './clock.ts';
import type { Layer } from './layer.ts';

export interface Deadline {
  /** Local ms past which nothing is sent; undefined: no deadline. */
  at: number | undefined;
  layer: Layer;
  /** Sleeps `ms`, or rejects at once with `refuse(ms)` when the wait would end past the deadline. */
  sleep(ms: number): Promise<void>;
}

export function deadline(clock: Clock, at: number | undefined, refuse: (waitMs: number) => Error): Deadline {
  const passes = (ms: number): boolean => at !== undefined && clock.now() + ms > at;
  return {
    at,
    layer: (next) => (request) => (passes(0) ? Promise.reject(refuse(0)) : next(request)),
    sleep: (ms) => (passes(ms) ? Promise.reject(refuse(ms)) : clock.sleep(ms)),
  };
}
