// GCRA (the generic cell rate algorithm, "leaky bucket as a meter"), written here independently: no
// well-kept in-memory GCRA package exists for Node (the npm ones need Redis). Per key and quota one
// number, the theoretical arrival time (TAT): each request moves it one emission interval T = window /
// figure later; a request is admitted while TAT − now ≤ τ = (figure − 1)·T, i.e. a burst of `figure`
// from idle, refilled at `figure` per window. Headers: metered.ts.
import { serveApp, storeApp, type RunningService } from './store-app.ts';
import { meteredLimiters, type Meter, type MeteredOptions } from './metered.ts';

export function gcraMeter(figure: number, lengthMs: number): Meter {
  const interval = lengthMs / figure;
  const tolerance = (figure - 1) * interval;
  let tat = Number.NEGATIVE_INFINITY;
  const from = (now: number): number => Math.max(tat, now);
  return {
    // Requests that fit: those whose cells stay within now + τ + T.
    room: (now) => (now + tolerance + interval - from(now)) / interval,
    take: (now) => void (tat = from(now) + interval),
    fullAtMs: (now) => from(now),
    oneAtMs: (now) => from(now) - tolerance,
  };
}

export function gcraService(options: MeteredOptions): Promise<RunningService> {
  return serveApp(storeApp(options, meteredLimiters(options, gcraMeter)), options.keys);
}
