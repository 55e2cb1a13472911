// `petcert capacity merge`'s input: N runners' logs (k6 stdout, `kubectl logs`) holding their marked
// result and canary lines (result.ts). A canary's line goes with the runner of its file.
import { readFileSync } from 'node:fs';
import { ConfigError, errorMessage } from '../../core/errors.ts';
import { parseCanaryLines, parseRunnerResults, type CanaryResult, type RunnerResult } from './result.ts';

export function readRunnerLogs(files: readonly string[]): RunnerResult[] {
  const results: RunnerResult[] = [];
  const canaries: CanaryResult[] = [];
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
  if (results.length === 0)
    throw new ConfigError('no runner result (a line starting PETCERT_CAPACITY_RESULT) in the files given', 'merge');
  const runs = new Set(results.map((r) => JSON.stringify(r.run)));
  if (runs.size > 1)
    throw new ConfigError('the logs come from different runs (their targets, plans or SLOs differ)', 'merge');
  results[0] = { ...results[0]!, canaries: [...results[0]!.canaries, ...canaries] };
  return results;
}
