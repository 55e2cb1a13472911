// From what a run recorded to report.json's checks: the ledger's results, with the reason a check that
// never applied was skipped (a check that saw nothing is not a pass).
import type { Entry, Ledger } from '../report/ledger.ts';
import { resultOf } from '../report/ledger.ts';
import type { CheckResult } from '../report/model.ts';
import type { Check } from './checks/types.ts';

function unreachedReason(check: Check, entry: Entry, abortMessage: string | undefined): string | undefined {
  if (entry.findings.length || entry.skipReason) return entry.skipReason;
  if (check.kind === 'response' && entry.applied === 0) return abortMessage ? `the run stopped early: ${abortMessage}` : 'no response this rule applies to was seen';
  if (check.kind === 'scenario' && entry.info['runs'] === undefined && entry.applied === 0) return `the run stopped early${abortMessage ? `: ${abortMessage}` : ''}`;
  if (check.kind === 'summary' && check.level === 'OBSERVE' && !entry.tally) return 'nothing to observe in this run';
  return undefined;
}

export function checkResults(checks: readonly Check[], ledger: Ledger, secrets: readonly string[], abortMessage: string | undefined): CheckResult[] {
  return checks.map((check) => {
    const entry = ledger.entry(check);
    const skipReason = unreachedReason(check, entry, abortMessage);
    return resultOf(check, skipReason === undefined ? entry : { ...entry, skipReason }, { secrets });
  });
}
