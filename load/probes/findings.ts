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

/** Every probe's observation may end early (stopped or cut short, run.ts): the rules that need what is missing say why (`missing`). */
export interface Observed {
  cut?: Unjudged;
}

export interface FailureDetail {
  exchange?: Exchange;
  expected?: unknown;
  received?: unknown;
}

/** A rule of a probe: the check by its key (a typo does not compile), its judge, and its guard. */
export const rule = <O>(key: CheckKey, judge: (o: O) => Judged, applies?: (o: O) => Verdict | undefined): ProbeRule<O> =>
  ({ check: CHECKS[key], judge, applies });

/** A failure as a Verdict, with the exchange and figures a reader needs. */
export const failure = (message: string, detail: FailureDetail = {}): Verdict => verdict.fail({ message, ...detail });

export const NOT_REACHED = 'not reached (see the other checks of this probe)';

/** What a rule whose part of the observation is missing returns: the cut's reason, or "not reached". */
export const missing = (o: Observed): Verdict => verdict.unjudgedBy(o.cut ?? { reason: NOT_REACHED });

/** Nothing to say about this observation: the table's `owns` reports the check unjudged if no rule spoke. */
export const silent: readonly Verdict[] = [];

export interface Findings {
  /**
   * Judges an observation by a probe's rules into this key's ledger. Every check in `owns` (the
   * probe's PROBE_CHECKS) gets a result: one no rule reached is unjudged, never silently absent.
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
      for (const key of owns) record(ledger, CHECKS[key], missing(observation as Observed));
    },
    results: () => ledger.entries().map(([check, entry]) => resultOf(check, entry, { secrets, label: plan })),
  };
}
