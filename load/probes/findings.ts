// The probes' view of the one ledger (report/ledger.ts): checks named by their key in CHECKS (a typo
// does not compile), results labelled with the plan ("quota.minute.exact[free]") so plans never merge.
// A check never reached is reported skipped with the reason, never silently absent.
import type { Exchange } from '../../core/exchange.ts';
import { createLedger, resultOf, type SkipHow } from '../../report/ledger.ts';
import type { CheckResult } from '../../report/model.ts';
import { CHECKS, type CheckKey } from './checks.ts';

export interface FailureDetail {
  exchange?: Exchange;
  expected?: unknown;
  received?: unknown;
}

export interface Findings {
  pass(key: CheckKey): void;
  fail(key: CheckKey, message: string, detail?: FailureDetail): void;
  observe(key: CheckKey, observed: unknown): void;
  /** Could not judge (the default: the run is INCOMPLETE), or `{ kind: 'not-applicable' }` for a rule of another model. */
  skip(key: CheckKey, reason: string, how?: SkipHow): void;
  failed(key: CheckKey): boolean;
  results(): CheckResult[];
}

export function createFindings(plan: string, secrets: readonly string[]): Findings {
  const ledger = createLedger();
  return {
    pass: (key) => ledger.pass(CHECKS[key]),
    fail: (key, message, detail = {}) => ledger.fail(CHECKS[key], { message, ...detail }),
    observe: (key, observed) => ledger.observe(CHECKS[key], observed),
    skip: (key, reason, how) => ledger.skip(CHECKS[key], reason, how),
    failed: (key) => ledger.failed(CHECKS[key]),
    results: () => ledger.entries().map(([check, entry]) => resultOf(check, entry, { secrets, label: plan })),
  };
}
