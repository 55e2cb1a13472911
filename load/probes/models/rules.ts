// What the rules that depend on the limiter's model ask of the catalog, one function per question, so
// the matrix (matrix.test.ts) can show every model against every such rule: judged, not applicable, or
// unjudged with the reason. The rules call these; none compares a model's name.
import { verdict, type Verdict } from '../../../report/check.ts';
import { traitsOf } from './catalog.ts';
import type { ModelVerdict } from './minute-count.ts';
import { untold } from './unknown.ts';

export { fixedWindowRule } from './unknown.ts';

/**
 * The distinct, contiguous Remaining set of a concurrent burst is a fixed window's rule: a limiter that
 * refills between simultaneous requests may repeat a value. Undefined: judged.
 */
export function remainingSetRule(v: ModelVerdict | undefined): Verdict | undefined {
  if (!traitsOf(v).remainingMayRepeat) return undefined;
  return verdict.notApplicable(
    `a ${v!.model} limiter refills between simultaneous requests, so their Remaining values may repeat`,
  );
}

/**
 * How the day probe judges a key's day: as a fixed day (a count of a fresh day window), as a day that is
 * no fixed window's (paced until its 429, day-sliding.ts), or from the day's own answers when the minute
 * probe told no model (they may show it refills, or that no fixed day is at work; else it stays unjudged).
 */
export function dayPath(v: ModelVerdict | undefined): 'fixed' | 'not-fixed' | 'own-evidence' {
  if (traitsOf(v).fixedWindowRules === 'not-applicable') return 'not-fixed';
  return untold(v) ? 'own-evidence' : 'fixed';
}
