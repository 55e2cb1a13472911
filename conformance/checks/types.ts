// The shape of a check. A check is one rule of the specification: an id (also the report label and
// the key of the fault table), a title, a level and the section it enforces, and one small function.
// Three kinds: a *response* check judges every exchange it applies to (headers, error bodies, 5xx),
// a *scenario* check drives its own requests from fast-check inputs and judges what comes back, a
// *summary* check judges once at the end what the run recorded (OBSERVE tallies, unique ids).
// The metadata and the Finding are the one verdict model's (report/check.ts).
import type fc from 'fast-check';
import type { Exchange } from '../../core/exchange.ts';
import type { CheckMeta, Finding } from '../../report/check.ts';
import type { SkipKind } from '../../report/model.ts';
import type { RunContext } from '../context.ts';

export { fail } from '../../report/check.ts';
export type { CheckMeta, Finding } from '../../report/check.ts';

/** Why a check did not run: could not judge (the default) or does not apply, and what would let it run. */
export interface Skip {
  skip: string;
  kind?: SkipKind;
  fix?: string;
}

export interface ResponseCheck extends CheckMeta {
  kind: 'response';
  /** The guard: which exchanges the rule speaks about. */
  applies: (exchange: Exchange, ctx: RunContext) => boolean;
  judge: (exchange: Exchange, ctx: RunContext) => Finding | undefined;
  /** What it means when no exchange of the run met the guard (default: could not judge, no fix). */
  unseen?: Skip;
}

/**
 * What a scenario run returns when it sent its requests but the answers could not decide the rule (e.g.
 * nothing in them was comparable): neither a pass nor a failure. A check judged by no run is unjudged.
 */
export const UNDECIDED = Symbol('undecided');
export type RunVerdict = Finding | undefined | typeof UNDECIDED;

export interface ScenarioCheck<T = unknown> extends CheckMeta {
  kind: 'scenario';
  /** Share of the budget, relative to the other scenario checks. */
  weight: number;
  /** Requests one run takes (for planning numRuns from the share). */
  cost: number;
  /** Why the check cannot run on this target now (e.g. nothing created yet), or undefined. */
  skipIf?: (ctx: RunContext) => Skip | undefined;
  arbitrary: (ctx: RunContext) => fc.Arbitrary<T>;
  /**
   * Inputs tried first, every run (they take the first of the planned runs): the mistakes real
   * implementations make most, so a small budget still covers them instead of leaving them to chance.
   */
  examples?: (ctx: RunContext) => T[];
  /** Sends the requests of one input and judges them; undefined when the rule held, UNDECIDED when it could not tell. */
  run: (input: T, ctx: RunContext) => Promise<RunVerdict>;
  /** Why the check is unjudged when every run it made was UNDECIDED (checks that can return UNDECIDED give it). */
  undecided?: Skip;
  /**
   * When every run was UNDECIDED, its runs once more after this pause: for answers that cannot decide only
   * near some moment (a window's edges), not for a target that never can.
   */
  undecidedAgainAfterMs?: number;
}

/** An OBSERVE (or aggregate) check judged once at the end from what the run recorded. */
export interface SummaryCheck extends CheckMeta {
  kind: 'summary';
  judge: (ctx: RunContext) => Finding[] | Skip | undefined;
}

export type Check = ResponseCheck | ScenarioCheck<any> | SummaryCheck;

/** An OBSERVE check that only reports what `ctx.observe(check, label)` tallied during the run. */
export const observation = (id: string, title: string, specRef: string): SummaryCheck => ({
  kind: 'summary',
  id,
  title,
  level: 'OBSERVE',
  specRef,
  judge: () => undefined,
});
