// No silent pass: the k6 side of load/shared/guards.ts. Every petcert script carries NO_SILENT_PASS in
// its thresholds, refuses in setup() a command line that replaced its scenarios, and runs its iterations
// through guarded(): k6 only logs an exception thrown in an iteration (exit code 0), so guarded() aborts
// the test instead (exit code 108). REPORT_DIR's check is in report-dir.ts (no k6 import: a lazy module uses it).
import exec from 'k6/execution';
import { iterationThrew, replacedScenarios } from '../../shared/guards.ts';

export { EVERY_CHECK_PASSES, NO_SILENT_PASS } from '../../shared/guards.ts';

/** The iteration, aborting the whole test (exit code 108) when it throws. */
export function guarded(script: string, iteration: () => Promise<void>): () => Promise<void> {
  return async () => {
    try {
      await iteration();
    } catch (error) {
      exec.test.abort(iterationThrew(script, error));
    }
  };
}

/** For setup(): abort (exit code 108) when k6 is not running the script's own scenarios. */
export function refuseReplacedScenarios(expected: readonly string[]): void {
  const problem = replacedScenarios(expected, Object.keys(exec.test.options.scenarios ?? {}));
  if (problem !== undefined) exec.test.abort(problem);
}
