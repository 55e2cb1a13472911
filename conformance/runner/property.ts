// One scenario check as a fast-check property. The property returns a failure value instead of
// throwing; the last failing run is the shrunk counterexample fast-check reports, so its finding is
// the one kept. Requests are bounded by the check's share: once spent, remaining runs (and shrink
// candidates) pass without sending, which ends shrinking at the smallest case found so far.
import fc from 'fast-check';
import { AbortRunError, PetcertError, TransportError } from '../../core/errors.ts';
import { UNDECIDED, type ScenarioCheck, type Finding } from '../checks/types.ts';
import type { RunContext } from '../context.ts';

export interface ScenarioOutcome {
  runs: number;
  /** Runs whose input was sent and judged: runs after the share was spent pass without judging anything. */
  judged: number;
  /** Runs that sent their input but whose answers could not decide the rule (UNDECIDED): not judged. */
  undecided: number;
  requests: number;
  seed: number;
  transportErrors: number;
  failure?: { finding: Finding; counterexample: unknown; path: string | null; shrinks: number };
  /** Set when the run must stop (unreachable target, endless 429s, run timeout). */
  stop?: PetcertError;
}

const SHARE_SPENT = Symbol('share spent');

export async function runScenario<T>(
  check: ScenarioCheck<T>,
  ctx: RunContext,
  o: { seed: number; numRuns: number; share: number },
): Promise<ScenarioOutcome> {
  let used = 0;
  let spent = false;
  let stop: PetcertError | undefined;
  let transportErrors = 0;
  let judged = 0;
  let undecided = 0;
  let last: { input: unknown; finding: Finding } | undefined;
  const scoped: RunContext = {
    ...ctx,
    send: async (request) => {
      if (used >= o.share) throw SHARE_SPENT;
      used += 1;
      return ctx.send(request);
    },
  };
  const property = fc.asyncProperty(check.arbitrary(ctx), async (input) => {
    if (spent || stop) return true;
    try {
      const finding = await check.run(input, scoped);
      if (finding === UNDECIDED) {
        undecided += 1;
        return true;
      }
      judged += 1;
      if (!finding) return true;
      last = { input, finding };
      return false;
    } catch (error) {
      if (error === SHARE_SPENT) spent = true;
      else if (error instanceof AbortRunError && error.reason === 'BUDGET') spent = true;
      // One request without an answer is not yet a verdict: the transport guard turns a dead target
      // into UnreachableError after a few in a row, which stops the run.
      else if (error instanceof TransportError) transportErrors += 1;
      else if (error instanceof PetcertError) stop = error;
      else throw error;
      return true;
    }
  });
  const examples = (check.examples?.(ctx) ?? []).map((e) => [e] as [unknown]);
  let details = await fc.check(property, { seed: o.seed, numRuns: o.numRuns, examples });
  let runs = details.numRuns;
  // Every run undecided, and the check names a moment after which its answers can decide (a window's edge
  // passed): one more pass of the same runs, from what is left of the share.
  if (!details.failed && judged === 0 && undecided > 0 && !spent && !stop && check.undecidedAgainAfterMs) {
    await ctx.sleep(check.undecidedAgainAfterMs);
    details = await fc.check(property, { seed: o.seed, numRuns: o.numRuns, examples });
    runs += details.numRuns;
  }
  if (details.failed && !last) throw details.errorInstance ?? new Error(`check ${check.id} failed without a finding`);
  const outcome: ScenarioOutcome = {
    runs,
    judged,
    undecided,
    requests: used,
    seed: o.seed,
    transportErrors,
    ...(stop ? { stop } : {}),
  };
  if (details.failed && last) {
    outcome.failure = {
      finding: last.finding,
      counterexample: details.counterexample?.[0],
      path: details.counterexamplePath,
      shrinks: details.numShrinks,
    };
  }
  return outcome;
}
