// The FastAPI + slowapi service (python/app.py) under uvicorn, from the venv python/setup.sh builds in
// .cache/ (.ci/run builds it). Like testkit/k6 with a missing k6: without the venv its tests are skipped
// on a developer's machine, and the title says why; in CI (CI=true) they fail instead.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { anonymousPlan, resolveKeys } from '../../reference/keys.ts';
import { IN_CI } from '../k6/k6.ts';
import type { LimiterFault } from './faults.ts';
import type { RunningService, ServiceOptions } from './store-app.ts';

const APP_DIR = fileURLToPath(new URL('./python/', import.meta.url));
export const VENV_PYTHON = fileURLToPath(new URL('../../.cache/limiters-python/venv/bin/python', import.meta.url));
const START_MS = 20_000;

/** Why the slowapi tests are skipped here (undefined: they run, and fail in CI without the venv). */
export const SLOWAPI_SKIP: string | undefined =
  existsSync(VENV_PYTHON) || IN_CI
    ? undefined
    : 'skipped: the slowapi venv is not built — run bash testkit/limiters/python/setup.sh';

/**
 * slowapi's `strategy` (limits' strategies): its default, limits' moving window (a log of the last window), or
 * its sliding-window counter (the previous window's count weighted by the time left in the current one).
 */
export type SlowapiStrategy = 'fixed-window' | 'moving-window' | 'sliding-window-counter';

/** The plans resolved by spec/plans.ts, handed to app.py as LIMITER_CONFIG: no figure written twice. */
export function slowapiConfig(
  options: ServiceOptions,
  fault?: LimiterFault,
  strategy: SlowapiStrategy = 'fixed-window',
): string {
  const keys: Record<string, { perMinute: number; perDay: number }> = {};
  for (const [key, plan] of resolveKeys(options.plans, options.keys))
    keys[key] = { perMinute: plan.perMinute, perDay: plan.perDay };
  const { minuteSeconds, daySeconds } = options.plans.windows;
  const anonymous = { perMinute: anonymousPlan(options.plans).perMinute };
  return JSON.stringify({ windows: { minuteSeconds, daySeconds }, keys, anonymous, fault, strategy });
}

export function slowapiService(
  options: ServiceOptions,
  fault?: LimiterFault,
  strategy?: SlowapiStrategy,
): Promise<RunningService> {
  if (!existsSync(VENV_PYTHON))
    return Promise.reject(new Error(`no slowapi venv at ${VENV_PYTHON}: run bash testkit/limiters/python/setup.sh`));
  const args = [
    '-m',
    'uvicorn',
    'app:app',
    '--app-dir',
    APP_DIR,
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--no-access-log',
  ];
  const child = spawn(VENV_PYTHON, args, {
    env: { ...process.env, LIMITER_CONFIG: slowapiConfig(options, fault, strategy) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let log = '';
    const timer = setTimeout(
      () => void close().then(() => reject(new Error(`uvicorn did not start within ${START_MS} ms:\n${log}`))),
      START_MS,
    );
    const read = (chunk: Buffer): void => {
      log += chunk.toString();
      const port = /Uvicorn running on http:\/\/127\.0\.0\.1:(\d+)/.exec(log)?.[1];
      if (port === undefined) return;
      clearTimeout(timer);
      child.stderr.off('data', read);
      child.stderr.resume();
      resolve({ baseUrl: `http://127.0.0.1:${port}/v1`, keys: { ...options.keys }, close });
    };
    child.stderr.on('data', read);
    child.stdout.resume();
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`uvicorn exited (${code}) before serving:\n${log}`));
    });
  });
}
