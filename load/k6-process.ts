// The one way petcert starts k6 (product, tests and benches alike): `k6 <args>` as a child process with
// a clean environment (PATH, HOME, no usage report to Grafana, the standard network variables of the
// allowlist below, then the caller's variables), bounded in
// time (SIGINT, so k6 still writes its summary, then SIGKILL after a grace), or stopped early by a
// signal the same way, or at once when petcert itself is interrupted. It collects stdout whole (the marked result lines are read from it) and the
// tail of stderr.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../core/errors.ts';

/** After SIGINT, k6 gets this long to write its summary before SIGKILL. */
export const KILL_GRACE_MS = 5_000;
/** How long an interrupted k6 gets to exit before it is killed: sending stops within 1 s (docs/decisions/004). */
export const INTERRUPT_GRACE_MS = 1_000;
/** The most of stderr kept (its tail): k6 logs every failed request there. */
const STDERR_TAIL = 1_000_000;

export interface K6ProcessOptions {
  k6: string;
  /** e.g. ['run', '--quiet', script] */
  args: readonly string[];
  /** k6's environment besides PATH, HOME and K6_NO_USAGE_REPORT (the caller's own is not inherited). */
  env?: Record<string, string>;
  /** Default: a fresh temporary folder, so nothing k6 writes lands in the caller's folder; removed after when empty. */
  cwd?: string;
  /** k6 is stopped (SIGINT, then SIGKILL) after this. */
  timeoutMs: number;
  /** Aborting stops k6 the same way (e.g. once a test saw what it needed): it still writes its summary. */
  signal?: AbortSignal;
  /** petcert's own SIGINT/SIGTERM: k6 is stopped at once (SIGTERM, SIGKILL after INTERRUPT_GRACE_MS). */
  interrupt?: AbortSignal;
}

export interface K6Process {
  /** k6's exit code (99 thresholds crossed, 107 script error, 108 aborted); null when killed. */
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** true when the deadline stopped it */
  timedOut: boolean;
  /** true when `interrupt` stopped it */
  interrupted: boolean;
}

/**
 * The variables k6 (Go's net/http and crypto/x509) reads to reach a target the way the user's network
 * does: the proxies, and the trusted roots. Nothing else of the caller's environment reaches k6.
 */
export const K6_NETWORK_ALLOWLIST = [
  'HTTPS_PROXY',
  'https_proxy',
  'HTTP_PROXY',
  'http_proxy',
  'NO_PROXY',
  'no_proxy',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
] as const;

export function k6Environment(
  extra: Record<string, string> = {},
  env: Record<string, string | undefined> = process.env,
): Record<string, string> {
  const network = Object.fromEntries(K6_NETWORK_ALLOWLIST.flatMap((name) => (env[name] ? [[name, env[name]]] : [])));
  return { PATH: env.PATH ?? '', HOME: env.HOME ?? tmpdir(), K6_NO_USAGE_REPORT: 'true', ...network, ...extra };
}

export async function runK6Process(o: K6ProcessOptions): Promise<K6Process> {
  const cwd = o.cwd ?? mkdtempSync(join(tmpdir(), 'petcert-k6-cwd-'));
  try {
    return await k6Child(o, cwd);
  } finally {
    if (o.cwd === undefined) removeIfEmpty(cwd);
  }
}

/**
 * One folder per k6 process was left behind (thousands in /tmp after a test suite). A folder k6 wrote
 * into (a relative output path) is kept: what it holds is the user's.
 */
function removeIfEmpty(folder: string): void {
  try {
    rmdirSync(folder);
  } catch {
    // not empty, or already gone: nothing to lose either way
  }
}

function k6Child(o: K6ProcessOptions, cwd: string): Promise<K6Process> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(o.k6, [...o.args], { cwd, env: k6Environment(o.env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-STDERR_TAIL)));
    const stop = () => {
      child.kill('SIGINT');
      setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS).unref();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, o.timeoutMs);
    o.signal?.addEventListener('abort', stop, { once: true });
    const interrupt = () => {
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), INTERRUPT_GRACE_MS).unref();
    };
    if (o.interrupt?.aborted) interrupt();
    else o.interrupt?.addEventListener('abort', interrupt, { once: true });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(
        new ConfigError(
          `cannot start k6 ${o.k6} (${e.message}); build it with \`npm run k6:build\` or set K6=/path/to/k6`,
          'K6',
        ),
      );
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', stop);
      o.interrupt?.removeEventListener('abort', interrupt);
      resolve({ code, stdout, stderr, ms: Date.now() - started, timedOut, interrupted: o.interrupt?.aborted === true });
    });
  });
}
