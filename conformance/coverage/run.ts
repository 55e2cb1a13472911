// The coverage phase: every case once, in a fixed order, whatever the seed and the budget (its cost is
// reserved in the budget plan). A verdict goes to the check the case feeds — or to a response check
// that judged one of its answers (a list too long for its limit) — named after the case, with how to
// replay it alone (`--case NAME`); every case's outcome is listed under its check in the report.
import { AbortRunError, TransportError } from '../../core/errors.ts';
import type { HttpRequest } from '../../core/exchange.ts';
import type { ProgressSink } from '../../core/progress.ts';
import type { Ledger } from '../../report/ledger.ts';
import { UNDECIDED, type ResponseCheck } from '../checks/types.ts';
import type { RunContext } from '../context.ts';
import type { Attribution } from '../runner/book.ts';
import type { CoverageCase } from './cases.ts';

/** `fail (list.max-items)` when a response check failed on one of the case's answers. */
export type CaseOutcome =
  | 'pass'
  | 'fail'
  | `fail (${string})`
  | 'recorded'
  | 'undecided'
  | `skipped: ${string}`
  | 'no answer'
  | 'not run'
  | 'not run: the budget is spent';

/**
 * Which case sent a request, so that the transport's observer names the case in what the response
 * checks find (the runner passes the request object through to the exchange).
 */
export interface Attributions {
  of(request: HttpRequest): Attribution | undefined;
}

interface Tracker extends Attributions {
  claim(request: HttpRequest, c: CoverageCase): void;
  failedChecks(c: CoverageCase): string[];
}

export function createAttributions(): Tracker {
  const byRequest = new WeakMap<HttpRequest, CoverageCase>();
  const failed = new Map<CoverageCase, Set<string>>();
  return {
    claim: (request, c) => void byRequest.set(request, c),
    of(request) {
      const c = byRequest.get(request);
      if (!c) return undefined;
      return {
        name: c.spec.name,
        counterexample: counterexampleOf(c),
        failed: (check: ResponseCheck) => void (failed.get(c) ?? failed.set(c, new Set()).get(c)!).add(check.id),
      };
    },
    failedChecks: (c) => [...(failed.get(c) ?? [])],
  };
}

const counterexampleOf = (c: CoverageCase) => ({
  case: c.spec.name,
  rule: c.spec.rule,
  replay: `--case ${c.spec.name}`,
});

export interface CoverageOptions {
  concurrency: number;
  progress: ProgressSink;
  pool: <T>(items: readonly T[], n: number, task: (item: T) => Promise<void>) => Promise<void>;
  attributions: Tracker;
}

/** Runs the cases. Errors that stop the run (dead target, 429s, timeout) propagate. */
export async function runCoverage(
  cases: readonly CoverageCase[],
  ctx: RunContext,
  ledger: Ledger,
  o: CoverageOptions,
): Promise<void> {
  let done = 0;
  const listed = (c: CoverageCase) => (ledger.entry(c.check).info['coverage'] ??= {}) as Record<string, CaseOutcome>;
  // Listed in their fixed order before any runs, so the report reads the same whatever finished first.
  for (const c of cases) listed(c)[c.spec.name] = 'not run';
  await o.pool(cases, o.concurrency, async (c) => {
    const skip = c.skipIf?.(ctx);
    let outcome: CaseOutcome = `skipped: ${skip?.skip}`;
    if (skip === undefined) outcome = await runOne(c);
    listed(c)[c.spec.name] = outcome;
    done += 1;
    o.progress({ phase: 'conform: coverage', done, total: cases.length, message: c.spec.name });
  });

  async function runOne(c: CoverageCase): Promise<CaseOutcome> {
    let outcome: CaseOutcome;
    const statuses: number[] = [];
    const scoped: RunContext = {
      ...ctx,
      send: async (request) => {
        o.attributions.claim(request, c);
        const exchange = await ctx.send(request);
        statuses.push(exchange.response.status);
        return exchange;
      },
    };
    try {
      const finding = await c.run(scoped);
      const byResponseChecks = o.attributions.failedChecks(c);
      if (finding === UNDECIDED) {
        outcome = 'undecided';
      } else if (finding) {
        ledger.fail(c.check, {
          ...finding,
          message: `${c.spec.name}: ${finding.message}`,
          counterexample: counterexampleOf(c),
        });
        outcome = 'fail';
      } else if (byResponseChecks.length) {
        outcome = `fail (${byResponseChecks.join(', ')})`;
      } else if (c.decided && !c.decided(statuses)) {
        outcome = 'undecided';
      } else {
        ledger.pass(c.check);
        outcome = c.check.level === 'OBSERVE' ? 'recorded' : 'pass';
      }
    } catch (error) {
      // One lost request is not a verdict; the transport guard ends the run if the target is gone. The
      // phase's cost is reserved, but 429s waited out and retried cost requests too: a spent budget
      // leaves the remaining cases unrun, said so, and the run goes on to its summaries.
      if (error instanceof AbortRunError && error.reason === 'BUDGET') outcome = 'not run: the budget is spent';
      else if (error instanceof TransportError) outcome = 'no answer';
      else throw error;
    }
    return outcome;
  }
}
