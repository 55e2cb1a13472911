// From what a run recorded to report.json's checks: the ledger's results, with the reason a check that
// never applied was skipped (a check that saw nothing is not a pass), and whether that reason means it
// could not be judged (the run is INCOMPLETE) or that it does not bind a conform run.
import type { Entry, Ledger, SkipHow } from '../report/ledger.ts';
import { resultOf } from '../report/ledger.ts';
import type { CheckResult } from '../report/model.ts';
import type { Check } from './checks/types.ts';

type Unreached = { reason: string } & SkipHow;

const STOPPED_FIX = 'remove the cause the run stopped for (printed above the verdict), then run again';
const UNSEEN_FIX = 'raise --budget, so that the random exploration sends a request this rule reads';

function unreached(check: Check, entry: Entry, abortMessage: string | undefined): Unreached | undefined {
  if (entry.findings.length) return undefined;
  if (entry.skipReason)
    return {
      reason: entry.skipReason,
      ...(entry.skipKind ? { kind: entry.skipKind } : {}),
      ...(entry.fix ? { fix: entry.fix } : {}),
    };
  const stopped = { reason: `the run stopped early${abortMessage ? `: ${abortMessage}` : ''}`, fix: STOPPED_FIX };
  if (check.kind === 'response' && entry.applied === 0) {
    if (abortMessage) return stopped;
    return check.unseen
      ? { reason: check.unseen.skip, ...check.unseen }
      : { reason: 'no response this rule applies to was seen', fix: UNSEEN_FIX };
  }
  if (check.kind === 'scenario' && entry.info['runs'] === undefined && entry.applied === 0) return stopped;
  if (check.kind === 'summary' && check.level === 'OBSERVE' && !entry.tally)
    return { reason: 'nothing to observe in this run', kind: 'not-applicable' };
  return undefined;
}

export function checkResults(
  checks: readonly Check[],
  ledger: Ledger,
  secrets: readonly string[],
  abortMessage: string | undefined,
): CheckResult[] {
  return checks.map((check) => {
    const entry = ledger.entry(check);
    const why = unreached(check, entry, abortMessage);
    const settled: Entry =
      why === undefined
        ? entry
        : { ...entry, skipReason: why.reason, skipKind: why.kind ?? 'unjudged', ...(why.fix ? { fix: why.fix } : {}) };
    return resultOf(check, settled, { secrets });
  });
}
