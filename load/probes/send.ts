// The quota probes' Send: the one transport (undici under Node, k6/http in k6) under a stack of layers,
// the outermost first: the dead-target guard → a request that got no response is tried again → the run's
// deadline (past it nothing is sent) → counting what reaches the transport. Its parameters are what the
// printed worst case counts for one request (bounds.ts), so the two cannot disagree.
import type { Counter } from '../../core/count.ts';
import type { Deadline } from '../../core/deadline.ts';
import type { Send } from '../../core/exchange.ts';
import { DEFAULT_MAX_CONSECUTIVE_TRANSPORT_FAILURES, guard } from '../../core/guard.ts';
import { stack } from '../../core/layer.ts';
import { retryTransport } from '../../core/retry.ts';

/** Tries of one probe request; one request unanswered on every try ends the run (the guard), so never more. */
export const PROBE_TRIES = DEFAULT_MAX_CONSECUTIVE_TRANSPORT_FAILURES;

/** One probe request at worst: every try takes the whole timeout. */
export const requestWorstMs = (timeoutMs: number): number => PROBE_TRIES * timeoutMs;

/**
 * The guard sits outside the tries and counts requests, not tries: two keys' probes in flight together
 * each losing a try to a dropped keep-alive connection made three failed tries in a row, and a correct
 * target was called unreachable although every request was answered on its next try (cli/hostile.e2e).
 * A target is unreachable when one request got no response on any of its PROBE_TRIES tries.
 */
export function probeSend(transport: Send, o: { deadline: Deadline; count: Counter }): Send {
  return stack(transport, guard(1), retryTransport(PROBE_TRIES), o.deadline.layer, o.count.layer);
}
