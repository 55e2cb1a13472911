// A run stopped from outside (Ctrl-C, a CI's SIGTERM: docs/decisions/004) ends the way a run timeout ends:
// nothing more is sent and no wait goes on, each engine turning `refuse()` into its own early stop
// (conform: AbortRunError INTERRUPTED; the quota probes: the probe is cut short). A request already in
// flight finishes: cutting it would make a transport error the server never caused.
import type { Clock } from './clock.ts';
import type { Layer } from './layer.ts';

export interface Stop {
  signal: AbortSignal;
  /** The error a send or a wait meets once the signal fired. */
  refuse(): Error;
}

/** Past the signal nothing is sent. */
export const stopLayer =
  (stop: Stop): Layer =>
  (next) =>
  (request) =>
    stop.signal.aborted ? Promise.reject(stop.refuse()) : next(request);

/** The same clock, whose sleeps end (rejecting) as soon as the signal fires. */
export function stoppableClock(clock: Clock, stop: Stop): Clock {
  return {
    now: () => clock.now(),
    sleep: (ms) => {
      if (stop.signal.aborted) return Promise.reject(stop.refuse());
      return new Promise<void>((resolve, reject) => {
        const onAbort = () => reject(stop.refuse());
        stop.signal.addEventListener('abort', onAbort, { once: true });
        clock.sleep(ms).then(
          () => (stop.signal.removeEventListener('abort', onAbort), resolve()),
          (error: unknown) => (stop.signal.removeEventListener('abort', onAbort), reject(error)),
        );
      });
    },
  };
}
