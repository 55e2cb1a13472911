// The quota probes' Send: the one transport (undici under Node, k6/http in k6) under a stack of layers,
// the outermost first: a request that got no response is tried again → the run's deadline (past it
// nothing is sent) → the dead-target guard → counting what reaches the transport. Its parameters are
// what the printed worst case counts for one request (bounds.ts), so the two cannot disagree.
import type { Counter } from '../../core/count.ts';
import type { Deadline } from '../../core/deadline.ts';
import type { Send } from '../../core/exchange.ts';
import { DEFAULT_MAX_CONSECUTIVE_TRANSPORT_FAILURES, guard } from '../../core/guard.ts';
import { stack } from '../../core/layer.ts';
import { retryTransport } from '../../core/retry.ts';

/** Tries of one probe request; the guard ends the run after as many failures in a row, so never more. */
export const PROBE_TRIES = DEFAULT_MAX_CONSECUTIVE_TRANSPORT_FAILURES;

/** One probe request at worst: every try takes the whole timeout. */
export const requestWorstMs = (timeoutMs: number): number => PROBE_TRIES * timeoutMs;

export function probeSend(transport: Send, o: { deadline: Deadline; count: Counter }): Send {
  return stack(transport, retryTransport(PROBE_TRIES), o.deadline.layer, guard(PROBE_TRIES), o.count.layer);
}
