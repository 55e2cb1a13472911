// The quota probes' Send: the one transport (undici under Node, k6/http in k6) under a stack of layers,
// the outermost first: the 429 hold (nothing goes to a key before its last 429's Retry-After, whatever a
// probe asks) → the dead-target guard → a request that got no response is tried again → the run's
// deadline (past it nothing is sent) → counting what reaches the transport. Its parameters are what the
// printed worst case counts for one request (bounds.ts), so the two cannot disagree.
import type { Clock } from '../../core/clock.ts';
import type { Counter } from '../../core/count.ts';
import type { Deadline } from '../../core/deadline.ts';
import type { Send } from '../../core/exchange.ts';
import { DEFAULT_MAX_CONSECUTIVE_TRANSPORT_FAILURES, guard } from '../../core/guard.ts';
import { hold429 } from '../../core/hold-429.ts';
import { stack } from '../../core/layer.ts';
import { retryTransport } from '../../core/retry.ts';
import { retryAfterMs } from '../../spec/ratelimit.ts';
import { HeldBack, HoldTooLong } from './cut.ts';

/** Tries of one probe request; one request unanswered on every try ends the run (the guard), so never more. */
export const PROBE_TRIES = DEFAULT_MAX_CONSECUTIVE_TRANSPORT_FAILURES;

/** One probe request at worst: every try takes the whole timeout. */
export const requestWorstMs = (timeoutMs: number): number => PROBE_TRIES * timeoutMs;

/**
 * How far the hold lets 429s go: a key answered 429 this many times in a row, each after waiting what the
 * previous one asked, gets nothing more; nor does any key once the run met this many such 429s.
 */
export const HOLD = { backoffBaseMs: 1000, backoffCapMs: 60_000, maxInRow: 6, maxHeldPerRun: 40 } as const;

/**
 * The guard sits outside the tries and counts requests, not tries: two keys' probes in flight together
 * each losing a try to a dropped keep-alive connection made three failed tries in a row, and a correct
 * target was called unreachable although every request was answered on its next try (cli/hostile.e2e).
 * A target is unreachable when one request got no response on any of its PROBE_TRIES tries.
 */
export function probeSend(
  transport: Send,
  o: { clock: Clock; deadline: Deadline; count: Counter; maxWaitMs: number },
): Send {
  const hold = hold429({
    ...HOLD,
    clock: o.clock,
    keyOf: (request) => request.headers.authorization ?? '',
    retryAfterMs: (exchange) => retryAfterMs(exchange.response.headers),
    maxWaitMs: o.maxWaitMs,
    sleep: o.deadline.sleep,
    refuse: (why, waitMs) => (waitMs === undefined ? new HeldBack(why) : new HoldTooLong(`not waited: ${why}`)),
  });
  return stack(transport, hold, guard(1), retryTransport(PROBE_TRIES), o.deadline.layer, o.count.layer);
}
