// A limiter service in another language, run as a child process: its plans handed over as LIMITER_CONFIG
// (resolved from spec/plans.ts, so no figure is written twice), its port read from the line it prints
// once it serves, within a bound.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { IN_CI } from '../k6/k6.ts';
import { anonymousPlan, resolveKeys } from '../../reference/keys.ts';
import type { LimiterFault } from './faults.ts';
import type { RunningService, ServiceOptions } from './store-app.ts';

const START_MS = 20_000;
const STOP_MS = 5_000;

/** The plans and keys as the child services read them, with the twin's fault and any service-specific options. */
export function childConfig(
  options: ServiceOptions,
  fault?: LimiterFault,
  extra: Record<string, unknown> = {},
): string {
  const keys: Record<string, { perMinute: number; perDay: number }> = {};
  for (const [key, plan] of resolveKeys(options.plans, options.keys))
    keys[key] = { perMinute: plan.perMinute, perDay: plan.perDay };
  const { minuteSeconds, daySeconds } = options.plans.windows;
  const anonymous = { perMinute: anonymousPlan(options.plans).perMinute };
  return JSON.stringify({ windows: { minuteSeconds, daySeconds }, keys, anonymous, fault, ...extra });
}

/** A child service built into .cache/ by its setup script (.ci/run runs it): where it is, and how to build it. */
export interface Built {
  /** What it is, for messages ("the slowapi venv"). */
  what: string;
  path: string;
  /** The command that builds it. */
  setup: string;
}

/**
 * Why the tests of a built child service are skipped here (undefined: they run). Like testkit/k6 with a missing
 * k6: without the build they are skipped on a developer's machine, the title says why; in CI they fail instead.
 */
export const skipUnlessBuilt = (b: Built): string | undefined =>
  existsSync(b.path) || IN_CI ? undefined : `skipped: ${b.what} is not built — run ${b.setup}`;

export interface ChildSpec {
  /** What the child is, for errors ("uvicorn", "the httprate service"). */
  name: string;
  /** Arguments to the built program (`Built.path`). */
  args: string[];
  config: string;
  /** Which stream prints the serving line, and the pattern whose first group is the port. */
  stream: 'stdout' | 'stderr';
  /** Its first group is the port, followed by something not a digit (the line's end). */
  serving: RegExp;
}

export function startChild(spec: ChildSpec, options: ServiceOptions, built: Built): Promise<RunningService> {
  if (!existsSync(built.path))
    return Promise.reject(new Error(`${built.what} not found at ${built.path}: run ${built.setup}`));
  const child = spawn(built.path, spec.args, {
    env: { ...process.env, LIMITER_CONFIG: spec.config },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // SIGTERM, then SIGKILL if the child has not gone within a bound: closing never waits forever.
  const close = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), STOP_MS);
    await exited;
    clearTimeout(killer);
  };
  const out = spec.stream === 'stdout' ? child.stdout : child.stderr;
  const other = spec.stream === 'stdout' ? child.stderr : child.stdout;
  return new Promise((resolve, reject) => {
    let log = '';
    // The other stream joins the log too (Go writes its configuration errors to stderr), until the child serves.
    const keep = (chunk: Buffer): void => void (log += chunk.toString());
    other.on('data', keep);
    const timer = setTimeout(
      () => void close().then(() => reject(new Error(`${spec.name} did not start within ${START_MS} ms:\n${log}`))),
      START_MS,
    );
    const read = (chunk: Buffer): void => {
      log += chunk.toString();
      const port = spec.serving.exec(log)?.[1];
      if (port === undefined) return;
      clearTimeout(timer);
      out.off('data', read);
      other.off('data', keep);
      other.resume();
      out.resume();
      resolve({ baseUrl: `http://127.0.0.1:${port}/v1`, keys: { ...options.keys }, close });
    };
    out.on('data', read);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${spec.name} could not start: ${error.message}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${spec.name} exited (${code}) before serving:\n${log}`));
    });
  });
}
