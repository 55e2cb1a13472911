// The FastAPI + slowapi service (python/app.py) under uvicorn, from the venv python/setup.sh builds in
// .cache/ (.ci/run builds it). Like testkit/k6 with a missing k6: without the venv its tests are skipped
// on a developer's machine, and the title says why; in CI (CI=true) they fail instead.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { IN_CI } from '../k6/k6.ts';
import { childConfig, startChild } from './child-service.ts';
import type { LimiterFault } from './faults.ts';
import type { RunningService, ServiceOptions } from './store-app.ts';

const APP_DIR = fileURLToPath(new URL('./python/', import.meta.url));
export const VENV_PYTHON = fileURLToPath(new URL('../../.cache/limiters-python/venv/bin/python', import.meta.url));

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

/** The plans resolved by spec/plans.ts, handed to app.py as LIMITER_CONFIG with the strategy. */
export const slowapiConfig = (
  options: ServiceOptions,
  fault?: LimiterFault,
  strategy: SlowapiStrategy = 'fixed-window',
): string => childConfig(options, fault, { strategy });

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
  const spec = {
    name: 'uvicorn',
    command: VENV_PYTHON,
    args,
    config: slowapiConfig(options, fault, strategy),
    stream: 'stderr' as const,
    serving: /Uvicorn running on http:\/\/127\.0\.0\.1:(\d+) /,
  };
  return startChild(spec, options);
}
