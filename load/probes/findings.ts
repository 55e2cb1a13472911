// The probes' view of the one ledger (report/ledger.ts). A probe sends its requests and builds a typed
// observation; its table of rules (each a check of CHECKS, an optional guard and a pure judge returning
// Verdicts) is judged into the ledger by `judge`, the one way a probe's result is recorded. Results are
// labelled with the plan ("quota.minute.exact[free]") so plans never merge.
import type { Exchange } from '../../core/exchange.ts';
import { verdict, type Judged, type Rule, type Unjudged, type Verdict } from '../../report/check.ts';
import { createLedger, judgeRule, record, resultOf } from '../../report/ledger.ts';
import type { CheckResult } from '../../report/model.ts';
import { CHECKS, type CheckKey } from './checks.ts';

export type QuotaCheck = (typeof CHECKS)[CheckKey];
export type ProbeRule<O> = Rule<O, QuotaCheck>;

/** Every probe's observation may end early (stopped or cut short, run.ts): the rules that need what is missing say which stage and why (`missing`). */
export interface Observed {
  cut?: Unjudged;
}

export interface FailureDetail {
  exchange?: Exchange;
  expected?: unknown;
  received?: unknown;
}

/** A rule of a probe: the check by its key (a typo does not compile), its judge, and its guard. */
export const rule = <O>(
  key: CheckKey,
  judge: (o: O) => Judged,
  applies?: (o: O) => Verdict | undefined,
): ProbeRule<O> => ({ check: CHECKS[key], judge, applies });

/** A failure as a Verdict, with the exchange and figures a reader needs. */
export const failure = (message: string, detail: FailureDetail = {}): Verdict => verdict.fail({ message, ...detail });

/**
 * What a rule whose stage of the observation is missing returns: that stage, and why the probe never
 * got there — its cut (a wait capped, an answer it could not read) when it ended early, else `why`, the
 * earlier stage that did not give it the evidence. Each result says its own reason and fix: a reader of
 * one check never has to look at another to learn why it was not judged.
 */
export function notReached(o: Observed, stage: string, why: Unjudged): Unjudged {
  const cause = o.cut ?? why;
  const fix = cause.fix ?? why.fix;
  return { reason: `${stage} was not reached: ${cause.reason}`, ...(fix === undefined ? {} : { fix }) };
}

export const missing = (o: Observed, stage: string, why: Unjudged): Verdict =>
  verdict.unjudgedBy(notReached(o, stage, why));

/** A stage the probe ended without and no cut to explain it: petcert's own fault, said as such. */
export const UNEXPLAINED: Unjudged = {
  reason: 'the probe ended before it without a recorded cause (a bug of petcert)',
  fix: 'report it with report.json; run the probe again alone (--only) meanwhile',
};

/** Nothing to say about this observation: the table's `owns` reports the check unjudged if no rule spoke. */
export const silent: readonly Verdict[] = [];

/**
 * The last rules of a probe's table: every check the probe owns that no rule above spoke about is
 * unjudged with `why`'s reason and fix, read from the observation (the ledger keeps an earlier outcome).
 */
export const unreached = <O>(keys: readonly CheckKey[], why: (o: O) => Unjudged): ProbeRule<O>[] =>
  keys.map((key) => rule(key, (o: O) => verdict.unjudgedBy(why(o))));

/** A check whose probe never judged an observation for this key (its table says why when it did). */
export const NOT_RUN: Unjudged = {
  reason: 'the probe that owns this check did not run for this key',
  fix: 'select the probe (--only) and give the run the time its plan prints',
};

export interface Findings {
  /**
   * Judges an observation by a probe's rules into this key's ledger. Every check in `owns` (the
   * probe's PROBE_CHECKS) gets a result: one that still has none is unjudged (NOT_RUN), never absent.
   */
  judge<O>(rules: readonly ProbeRule<O>[], observation: O, owns?: readonly CheckKey[]): void;
  results(): CheckResult[];
}

export function createFindings(plan: string, secrets: readonly string[]): Findings {
  const ledger = createLedger<QuotaCheck>();
  return {
    judge(rules, observation, owns = []) {
      for (const r of rules) judgeRule(ledger, r, observation);
      // Recorded only while the check has no other outcome (ledger.skip): a reached check keeps its own.
      for (const key of owns) record(ledger, CHECKS[key], verdict.unjudgedBy(NOT_RUN));
    },
    results: () => ledger.entries().map(([check, entry]) => resultOf(check, entry, { secrets, label: plan })),
  };
}
