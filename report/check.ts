// The one verdict model every engine shares: what a check is (id, title, level, the section it
// enforces) and what it found (a Finding: data, never a thrown error). Conformance checks, quota
// probes and capacity checks all report through these types and the ledger beside them.
import type { Exchange } from '../core/exchange.ts';
import type { Level } from './model.ts';

export interface CheckMeta {
  readonly id: string;
  readonly title: string;
  readonly level: Level;
  /** Section of animal-store-v1.md (or an RFC) the check enforces. */
  readonly specRef: string;
}

/** What a check found. The ledger turns it into a report Failure (redacted, clipped, with a repro). */
export interface Finding {
  message: string;
  exchange?: Exchange;
  expected?: unknown;
  received?: unknown;
  /** The shrunk fast-check counterexample or the probe's parameters, when there is one. */
  counterexample?: unknown;
  /**
   * What makes two findings the same defect, when the check knows better than the default (operation
   * × status × the message's shape, report/cause.ts): failures are kept one per cause first.
   */
  cause?: string;
}

export const fail = (message: string, exchange?: Exchange, extra: Omit<Finding, 'message' | 'exchange'> = {}): Finding => ({
  message,
  ...(exchange ? { exchange } : {}),
  ...extra,
});

export const defineCheck = <L extends Level>(id: string, level: L, specRef: string, title: string): CheckMeta & { readonly level: L } => ({ id, level, specRef, title });
