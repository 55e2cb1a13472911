// What the probe scripts share: run some probes of the core once, turn each CheckResult into a k6
// check (failures must surface through checks and thresholds: errors thrown in async code are only
// logged), and write the JSON summary into reports/.
import { check } from 'k6';
import { silentProgress } from '../../../core/progress.ts';
import type { CheckResult } from '../../../report/model.ts';
import type { ProbeName } from '../../probes/checks.ts';
import { createContext } from '../../probes/context.ts';
import { runProbes } from '../../probes/run.ts';
import { summarize, type K6SummaryData } from '../../shared/summary.ts';
import type { ScriptConfig } from './config.ts';
import { k6Clock, k6Send } from './send.ts';

/**
 * MUST failures fail the check; SHOULD and OBSERVE are recorded as passing checks with their outcome in
 * the name, and so is a skipped MUST: under its bare id it would read as a MUST that passed.
 */
function reportCheck(result: CheckResult): void {
  const bare = result.level === 'MUST' && result.outcome !== 'skip';
  const name = bare ? result.id : `${result.id} (${result.level}: ${result.outcome})`;
  const ok = result.level !== 'MUST' || result.outcome !== 'fail';
  check(result, { [name]: () => ok });
  if (result.outcome === 'fail') console.warn(`${result.id}: ${result.failures.map((f) => f.message).join(' | ')}`);
  if (result.outcome === 'skip') console.log(`${result.id} skipped: ${result.skipReason ?? ''}`);
}

export async function runProbeScript(config: ScriptConfig, only: ProbeName[], filter: (r: CheckResult) => boolean = () => true): Promise<void> {
  const ctx = createContext({ send: k6Send(), clock: k6Clock, baseUrl: config.baseUrl, windows: config.plans.windows, progress: silentProgress });
  try {
    const results = await runProbes(ctx, config.keys, only, config.secrets);
    for (const r of results.checks.filter(filter)) reportCheck(r);
  } catch (error) {
    check(null, { [`probe run completed (${only.join(', ')})`]: () => false });
    console.error(`probe run stopped: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function summaryFiles(script: string, config: ScriptConfig, data: K6SummaryData): Record<string, string> {
  const dir = __ENV.REPORT_DIR || 'reports';
  const text = summarize(script, config.baseUrl, data, config.secrets);
  return { [`${dir}/k6-${script}.json`]: text, stdout: `${script}: summary written to ${dir}/k6-${script}.json\n` };
}
