// Running the capacity bundle under the real k6, one process at a time, bounded in time: settings go
// in as `-e NAME=value` (never the keys: those stay in the key file), the runner's result comes back
// as marked lines on stdout (load/capacity/result.ts).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { KILL_GRACE_MS } from '../load/capacity/bound.ts';
import { AbortRunError, ConfigError, PetcertError } from '../core/errors.ts';
import { redactText } from '../core/redact.ts';
import { parseCanaryLines, parseRunnerResults, type RunnerResult } from '../load/capacity/result.ts';

export const DEFAULT_BUNDLE = fileURLToPath(new URL('../load/dist/capacity.js', import.meta.url));

export interface K6Run {
  k6: string;
  script: string;
  env: Record<string, string>;
  /** k6 is stopped (SIGINT, then SIGKILL) after this */
  timeoutMs: number;
  /** scrubbed from anything quoted in an error */
  secrets: readonly string[];
  /** SIGINT/SIGTERM of petcert: k6 is stopped at once (SIGTERM, SIGKILL a second later), the step not judged. */
  signal?: AbortSignal;
}

/** How long an interrupted k6 gets to exit before it is killed: issue 16 §3 asks sending to stop within 1 s. */
export const INTERRUPT_GRACE_MS = 1_000;

export interface K6Outcome {
  result: RunnerResult;
  exitCode: number | null;
}

/** k6's exit code when thresholds failed: the SLO thresholds fail on purpose past the knee. */
const THRESHOLDS_FAILED = 99;

export function bundleOrError(script: string): string {
  if (!existsSync(script)) throw new ConfigError(`the capacity bundle ${script} does not exist: run \`npm run build\` first`, '--script');
  return script;
}

export function runK6(run: K6Run): Promise<K6Outcome> {
  const args = ['run', '--quiet', '--log-format', 'raw', '--no-color', ...Object.entries(run.env).flatMap(([k, v]) => ['-e', `${k}=${v}`]), run.script];
  return new Promise((resolve, reject) => {
    const child = spawn(run.k6, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-200_000)));
    const stop = setTimeout(() => {
      child.kill('SIGINT');
      setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS).unref();
    }, run.timeoutMs);
    const interrupt = () => {
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), INTERRUPT_GRACE_MS).unref();
    };
    if (run.signal?.aborted) interrupt();
    else run.signal?.addEventListener('abort', interrupt, { once: true });
    child.on('error', (e) => {
      clearTimeout(stop);
      reject(new ConfigError(`cannot start k6 (${e.message}); build it with \`npm run k6:build\` or set K6=/path/to/k6`, 'K6'));
    });
    child.on('close', (code) => {
      clearTimeout(stop);
      run.signal?.removeEventListener('abort', interrupt);
      if (run.signal?.aborted) return reject(new AbortRunError('INTERRUPTED', 'k6 was stopped: the run was interrupted (SIGINT/SIGTERM)'));
      const results = parseRunnerResults(out, 'k6 stdout');
      const canaries = parseCanaryLines(`${out}\n${err}`, 'k6 output');
      if (results.length !== 1 || (code !== 0 && code !== THRESHOLDS_FAILED)) {
        const tail = redactText(`${err}\n${out}`.trim().split('\n').slice(-15).join('\n'), run.secrets);
        reject(new PetcertError('K6_FAILED', `k6 exited with ${code} and ${results.length} result line(s):\n${tail}`));
        return;
      }
      resolve({ result: { ...results[0]!, canaries: [...results[0]!.canaries, ...canaries] }, exitCode: code });
    });
  });
}
