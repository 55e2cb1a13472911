// The coverage phase: every case once, in a fixed order, whatever the seed and the budget (its cost is
// reserved in the budget plan). A verdict goes to the check the case feeds, named after the case, with
// how to replay it alone (`--case NAME`); every case's outcome is listed under its check in the report.
import { TransportError } from '../../core/errors.ts';
import type { ProgressSink } from '../../core/progress.ts';
import type { Ledger } from '../../report/ledger.ts';
import type { RunContext } from '../context.ts';
import type { CoverageCase } from './cases.ts';

export type CaseOutcome = 'pass' | 'fail' | 'recorded' | 'undecided' | 'no answer' | 'not run';

export interface CoverageOptions {
  concurrency: number;
  progress: ProgressSink;
  pool: <T>(items: readonly T[], n: number, task: (item: T) => Promise<void>) => Promise<void>;
}

/** Runs the cases; returns the requests they took. Errors that stop the run (dead target, 429s, timeout) propagate. */
export async function runCoverage(cases: readonly CoverageCase[], ctx: RunContext, ledger: Ledger, o: CoverageOptions): Promise<number> {
  let requests = 0;
  let done = 0;
  const listed = (c: CoverageCase) => (ledger.entry(c.check).info['coverage'] ??= {}) as Record<string, CaseOutcome>;
  // Listed in their fixed order before any runs, so the report reads the same whatever finished first.
  for (const c of cases) listed(c)[c.spec.name] = 'not run';
  await o.pool(cases, o.concurrency, async (c) => {
    let outcome: CaseOutcome;
    const statuses: number[] = [];
    const scoped: RunContext = {
      ...ctx,
      send: async (request) => {
        requests += 1;
        const exchange = await ctx.send(request);
        statuses.push(exchange.response.status);
        return exchange;
      },
    };
    try {
      const finding = await c.run(scoped);
      if (finding) {
        ledger.fail(c.check, { ...finding, message: `${c.spec.name}: ${finding.message}`, counterexample: { case: c.spec.name, rule: c.spec.rule, replay: `--case ${c.spec.name}` } });
        outcome = 'fail';
      } else if (c.decided && !c.decided(statuses)) {
        outcome = 'undecided';
      } else {
        ledger.pass(c.check);
        outcome = c.check.level === 'OBSERVE' ? 'recorded' : 'pass';
      }
    } catch (error) {
      // One lost request is not a verdict; the transport guard ends the run if the target is gone.
      if (!(error instanceof TransportError)) throw error;
      outcome = 'no answer';
    }
    listed(c)[c.spec.name] = outcome;
    done += 1;
    o.progress({ phase: 'conform: coverage', done, total: cases.length, message: c.spec.name });
  });
  return requests;
}
