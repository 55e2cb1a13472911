// One k6 process of a capacity run: its document written to a private file (keys stay out of k6's
// arguments and environment), k6 started through the one driver (load/k6-process.ts), the runner's
// result read back from the marked lines on stdout (result.ts), the document removed. A step k6 got no
// answer in is no measurement (no-answer.ts): it stops the run with k6's log.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AbortRunError, ConfigError, PetcertError } from '../../core/errors.ts';
import { redactText } from '../../core/redact.ts';
import { runK6Process } from '../k6-process.ts';
import { documentText, type CapacityDocument } from './document.ts';
import { NoAnswerError, notMeasured } from './no-answer.ts';
import { parseCanaryLines, parseRunnerResults, type RunnerResult } from './result.ts';

export interface CapacityK6 {
  k6: string;
  /** the capacity bundle (load/dist/capacity.js) */
  script: string;
  /** scrubbed from anything quoted in an error */
  secrets: readonly string[];
  /** k6's own outputs (`--out json=…`), passed through */
  outputs?: readonly string[];
  /** SIGINT/SIGTERM of petcert: k6 is stopped at once and the step is not judged (AbortRunError INTERRUPTED). */
  interrupt?: AbortSignal;
  /** The network's variables (load/k6-network.ts): proxies, the trust bundle, verification. */
  env?: Record<string, string>;
}

/** k6's exit code when thresholds failed: the SLO thresholds fail on purpose past the knee. */
const THRESHOLDS_FAILED = 99;

export function bundleOrError(script: string): string {
  if (!existsSync(script))
    throw new ConfigError(`the capacity bundle ${script} does not exist: run \`npm run build\` first`, '--script');
  return script;
}

/**
 * k6's outputs for one process: a file output (json=…, csv=…) gets the process's label before its
 * extension (k6.json → k6-s3.json), since each step is a k6 process of its own and would overwrite it,
 * and a relative path is resolved against the caller's folder: k6 runs in a private temporary folder
 * (k6-process.ts), where `--out json=k6.json` was written and never seen.
 */
export function outputsFor(outputs: readonly string[], label: string, cwd = process.cwd()): string[] {
  return outputs.map((o) => {
    const m = /^(json|csv)=(.+?)(\.[A-Za-z0-9]+(?:\.gz)?)?$/.exec(o);
    return m ? `${m[1]}=${resolve(cwd, m[2]!)}-${label}${m[3] ?? ''}` : o;
  });
}

export async function runCapacityK6(k6: CapacityK6, doc: CapacityDocument, timeoutMs: number): Promise<RunnerResult> {
  const dir = mkdtempSync(join(tmpdir(), 'petcert-capacity-run-'));
  const file = join(dir, 'run.json');
  writeFileSync(file, documentText(doc), { mode: 0o600 });
  try {
    const label = doc.step === null ? 'all' : `s${doc.step + 1}`;
    const outs = outputsFor(k6.outputs ?? [], label).flatMap((o) => ['--out', o]);
    const args = ['run', '--quiet', '--log-format', 'raw', '--no-color', ...outs, k6.script];
    const run = await runK6Process({
      k6: k6.k6,
      args,
      env: { ...k6.env, CAPACITY_RUN: file },
      timeoutMs,
      interrupt: k6.interrupt,
    });
    if (run.interrupted)
      throw new AbortRunError('INTERRUPTED', 'k6 was stopped: the run was interrupted (SIGINT/SIGTERM)');
    const results = parseRunnerResults(run.stdout, 'k6 stdout');
    const canaries = parseCanaryLines(`${run.stdout}\n${run.stderr}`, 'k6 output');
    if (results.length !== 1 || (run.code !== 0 && run.code !== THRESHOLDS_FAILED)) {
      const tail = redactText(`${run.stderr}\n${run.stdout}`.trim().split('\n').slice(-15).join('\n'), k6.secrets);
      throw new PetcertError('K6_FAILED', `k6 exited with ${run.code} and ${results.length} result line(s):\n${tail}`);
    }
    const unmeasured = results[0]!.steps.map(notMeasured).find((why) => why !== undefined);
    if (unmeasured) throw new NoAnswerError(unmeasured, redactText(`${run.stderr}\n${run.stdout}`, k6.secrets));
    return { ...results[0]!, canaries: [...results[0]!.canaries, ...canaries] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
