// Pacing by the server's own X-RateLimit headers (§8.2): when the last answer to our key said nothing
// remains (counting requests still in flight), wait for its Reset in *server* time before sending.
// Only answers to the valid key steer pacing: a 401 may report some other (anonymous) bucket. A Reset
// that makes no sense (too far, already past) is ignored: the 429 path with Retry-After takes over.
import type { Clock } from '../../core/clock.ts';
import type { Exchange, HttpRequest } from '../../core/exchange.ts';
import type { Layer } from '../../core/layer.ts';
import { createServerClock, readRateLimit, type RateLimitState } from '../../spec/ratelimit.ts';

export interface Pacer {
  before(): Promise<void>;
  /** A request settled: it frees its place in flight; its answer, if any, steers when `steer`. */
  after(exchange: Exchange | undefined, steer: boolean): void;
}

export interface PacerOptions {
  clock: Clock;
  /** Longest pause pacing may take; longer ones are left to 429 + Retry-After. */
  maxPauseMs: number;
  marginMs?: number;
  /** The pause itself (default the clock's): the run's deadline refuses one that would pass it. */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * What an answer adds to what the pacer knows: a later window replaces an earlier one; within one window (one
 * Reset) the least Remaining stands, since answers in flight together may come back in another order than the
 * server counted them. An earlier window's answer, arriving late, tells nothing.
 */
export function latest(known: RateLimitState | undefined, read: RateLimitState): RateLimitState {
  if (!known || read.reset > known.reset) return read;
  if (read.reset < known.reset) return known;
  return read.remaining < known.remaining ? read : known;
}

export function createPacer({ clock, maxPauseMs, marginMs = 50, sleep = clock.sleep }: PacerOptions): Pacer {
  const serverClock = createServerClock();
  let state: RateLimitState | undefined;
  let inFlight = 0;

  const pauseMs = (): number => {
    if (!state || state.remaining - inFlight > 0) return 0;
    const localReset = serverClock.toLocalNotBefore(state.reset * 1000) ?? state.reset * 1000;
    const wait = localReset - clock.now() + marginMs;
    return wait > 0 && wait <= maxPauseMs ? wait : 0;
  };

  return {
    async before() {
      const wait = pauseMs();
      if (wait > 0) {
        await sleep(wait);
        state = undefined; // the next answer tells us about the new window
      }
      inFlight += 1;
    },
    after(exchange, steer) {
      inFlight = Math.max(0, inFlight - 1);
      if (!exchange || !steer) return;
      serverClock.observe(exchange.sentAt, exchange.sentAt + exchange.durationMs, exchange.response.headers);
      const read = readRateLimit(exchange.response.headers);
      if (read.ok) state = latest(state, read.value);
    },
  };
}

/** The pacer as a Send layer: only answers to requests that `steers` accepts steer it. */
export function pacing(o: PacerOptions & { steers: (request: HttpRequest) => boolean }): Layer {
  const pacer = createPacer(o);
  return (next) => async (request) => {
    await pacer.before();
    let exchange: Exchange | undefined;
    try {
      exchange = await next(request);
      return exchange;
    } finally {
      // A request with no answer frees its place in flight and steers nothing.
      pacer.after(exchange, o.steers(request));
    }
  };
}
