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

export const fail = (
  message: string,
  exchange?: Exchange,
  extra: Omit<Finding, 'message' | 'exchange'> = {},
): Finding => ({
  message,
  ...(exchange ? { exchange } : {}),
  ...extra,
});

export const defineCheck = <L extends Level>(
  id: string,
  level: L,
  specRef: string,
  title: string,
): CheckMeta & { readonly level: L } => ({ id, level, specRef, title });

/** Why a rule could not be judged, and what would let it: an unjudged Verdict without its kind. */
export interface Unjudged {
  readonly reason: string;
  readonly fix?: string;
}

/**
 * What a judge returns: the one result of every engine's checks. "Could not judge" and "does not
 * apply" are results with a reason (the ledger records them as skips of that kind), never a missing
 * call or a string to parse. An OBSERVE check returns what it saw.
 */
export type Verdict =
  | { readonly kind: 'pass' }
  | { readonly kind: 'fail'; readonly findings: readonly Finding[] }
  | ({ readonly kind: 'unjudged' } & Unjudged)
  | { readonly kind: 'not-applicable'; readonly reason: string }
  | { readonly kind: 'observed'; readonly value: unknown };

export const verdict = {
  pass: { kind: 'pass' } as Verdict,
  fail: (...findings: [Finding, ...Finding[]]): Verdict => ({ kind: 'fail', findings }),
  unjudged: (reason: string, fix?: string): Verdict =>
    fix === undefined ? { kind: 'unjudged', reason } : { kind: 'unjudged', reason, fix },
  unjudgedBy: ({ reason, fix }: Unjudged): Verdict => verdict.unjudged(reason, fix),
  notApplicable: (reason: string): Verdict => ({ kind: 'not-applicable', reason }),
  observed: (value: unknown): Verdict => ({ kind: 'observed', value }),
} as const;

/**
 * What a judge returns: one Verdict, or one per item it judged (each response, window or pair of
 * answers), in order; an empty list says the observation held nothing for this rule (the table that
 * owns the check then reports it unjudged, load/probes/findings.ts).
 */
export type Judged = Verdict | readonly Verdict[];

/**
 * A check as every engine states it: its metadata, a guard saying when it speaks about an observation
 * (a Verdict of kind not-applicable or unjudged when it does not; undefined when it does) and a pure
 * judge over that typed observation. Engines produce observations; `judgeRule` (ledger.ts) records.
 */
export interface Rule<O, M extends CheckMeta = CheckMeta> {
  readonly check: M;
  readonly applies?: (observation: O) => Verdict | undefined;
  readonly judge: (observation: O) => Judged;
  /** What the check saw, kept beside its verdict (report.json `observed`), e.g. the rates a headroom rests on. */
  readonly facts?: (observation: O) => unknown;
}
