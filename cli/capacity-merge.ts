// `petcert capacity merge FILES…`: N runners' logs (k6 stdout, `kubectl logs`) → one verdict. Counts
// and rates add; percentiles of several runners are reported as upper bounds (load/capacity/merge.ts).
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { ConfigError, errorMessage } from '../core/errors.ts';
import { VERSION } from '../core/version.ts';
import { mergeResults } from '../load/capacity/merge.ts';
import { capacityReport } from '../load/capacity/report.ts';
import { parseCanaryLines, parseRunnerResults, type RunnerResult } from '../load/capacity/result.ts';
import { finish } from './capacity.ts';
import { failOnFlag } from './flags.ts';
import { consoleOut, sayer, type Out } from './publish.ts';

export interface MergeFlags {
  reportDir: string;
  failOn: string;
  json?: boolean;
}

/** Every runner result and canary line in the files; the canaries go with the runner of their file. */
export function readRunnerLogs(files: readonly string[]): RunnerResult[] {
  const results: RunnerResult[] = [];
  const canaries = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new ConfigError(`cannot read: ${errorMessage(error)}`, file);
    }
    results.push(...parseRunnerResults(text, file));
    canaries.push(...parseCanaryLines(text, file));
  }
  if (results.length === 0) throw new ConfigError('no runner result (a line starting PETCERT_CAPACITY_RESULT) in the files given', 'merge');
  const runs = new Set(results.map((r) => JSON.stringify(r.run)));
  if (runs.size > 1) throw new ConfigError('the logs come from different runs (their targets, plans or SLOs differ)', 'merge');
  results[0] = { ...results[0]!, canaries: [...results[0]!.canaries, ...canaries] };
  return results;
}

export function mergeAction(files: string[], flags: MergeFlags, out: Out = consoleOut): number {
  const failOn = failOnFlag(flags.failOn);
  const results = readRunnerLogs(files);
  const merged = mergeResults(results);
  const now = new Date().toISOString();
  const report = capacityReport({ version: VERSION, run: results[0]!.run, merged, generator: { limit: null, atLeast: false }, startedAt: now, finishedAt: now, extra: { merge: { runners: results.length, segments: results.map((r) => r.segment), percentiles: merged.runners > 1 ? 'upper bounds: the largest of the runners\' (a merged percentile lies between their smallest and largest)' : 'exact' } } });
  const uncovered = merged.steps.filter((s) => s.coverage < 0.999);
  if (uncovered.length > 0) sayer(out, flags.json)(`warning: runners cover only ${Math.round(uncovered[0]!.coverage * 100)} % of the load of step ${uncovered[0]!.index + 1}: a runner's log is missing`);
  return finish(report, flags, failOn, [], out);
}

export function registerCapacityMerge(capacity: Command): void {
  capacity
    .command('merge')
    .description('One capacity verdict from N k6 runners\' logs (k6-operator: kubectl logs)')
    .argument('<files...>', 'runner logs holding PETCERT_CAPACITY_RESULT lines')
    // --report-dir, --fail-on and --json are capacity's own options, read wherever they stand.
    .addHelpText('after', '\nOptions of petcert capacity that apply: --report-dir, --fail-on, --json.\nExample: petcert capacity merge runner-0.log runner-1.log --report-dir reports')
    .action((files: string[]) => {
      process.exitCode = mergeAction(files, capacity.opts<MergeFlags>());
    });
}
