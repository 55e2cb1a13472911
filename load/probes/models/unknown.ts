// The one path for a model the evidence did not tell (catalog.ts `unknown`, and no minute probe at all):
// a rule that needs the model is unjudged, with why and what would tell it; a fixed-window rule on a
// limiter shown to be another model does not apply.
import { verdict, type Verdict } from '../../../report/check.ts';
import { traitsOf } from './catalog.ts';
import type { ModelVerdict } from './minute-count.ts';

/** Whether the fixed-window rules bind what the evidence told: they apply only to a fixed window. */
export const isFixed = (v: ModelVerdict | undefined): boolean => traitsOf(v).fixedWindowRules === 'apply';

/** Shown to be a model that is not a fixed window: the fixed-window rules do not bind it. */
export const shownNotFixed = (v: ModelVerdict | undefined): boolean =>
  traitsOf(v).fixedWindowRules === 'not-applicable';

/** The evidence told no model: the minute probe did not run, or ran and could not tell it. */
export const untold = (v: ModelVerdict | undefined): boolean => !traitsOf(v).told;

/** The minute probe ran and could not tell the model (its answers' headers do not show it). */
export const toldNothing = (v: ModelVerdict | undefined): boolean => v !== undefined && untold(v);

export const fixedRuleReason = (v: ModelVerdict | undefined): string =>
  v === undefined
    ? "a fixed-window rule, and the limiter's model is unknown (the minute probe did not run for this key)"
    : `a fixed-window rule, and the evidence does not show a fixed window (model: ${v.model}; ${v.why})`;

/**
 * What would tell a model petcert could not: its own evidence's fix when it names one; the minute probe
 * when it did not run; else answers whose headers are the binding quota's, which show the model.
 */
export const modelFix = (v: ModelVerdict | undefined): string =>
  v?.fix ??
  (v === undefined
    ? "run the minute probe too (--only minute and this probe), which tells the limiter's model"
    : 'send on each answer the X-RateLimit-* of the quota that binds it ' +
      "(the minute quota's while the minute binds, §8.2), which show the limiter's model");

/**
 * A fixed-window rule's verdict when it does not bind: not applicable on a limiter shown to be another
 * model; unjudged (the run is INCOMPLETE) when the model is unknown, with what would tell it. Undefined:
 * the evidence shows a fixed window, and the rule is judged.
 */
export function fixedWindowRule(v: ModelVerdict | undefined): Verdict | undefined {
  const rules = traitsOf(v).fixedWindowRules;
  if (rules === 'apply') return undefined;
  return rules === 'not-applicable'
    ? verdict.notApplicable(fixedRuleReason(v))
    : verdict.unjudged(fixedRuleReason(v), modelFix(v));
}

/** A fixed-window rule that does not bind (fixedWindowRule), whatever the model told, as a verdict. */
export const fixedRuleSkip = (v: ModelVerdict | undefined): Verdict =>
  fixedWindowRule(v) ?? verdict.unjudged(fixedRuleReason(v), modelFix(v));
