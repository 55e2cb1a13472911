// The FastAPI + slowapi service (python/app.py) under uvicorn, from the venv python/setup.sh builds in
// .cache/ (.ci/run builds it); without it, its tests are skipped here and fail in CI (child-service.ts).
import { fileURLToPath } from 'node:url';
import { childConfig, skipUnlessBuilt, startChild, type Built } from './child-service.ts';
import type { LimiterFault } from './faults.ts';
import type { RunningService, ServiceOptions } from './store-app.ts';

const APP_DIR = fileURLToPath(new URL('./python/', import.meta.url));
const VENV: Built = {
  what: 'the slowapi venv',
  path: fileURLToPath(new URL('../../.cache/limiters-python/venv/bin/python', import.meta.url)),
  setup: 'bash testkit/limiters/python/setup.sh',
};

/** Why the slowapi tests are skipped here (undefined: they run, and fail in CI without the venv). */
export const SLOWAPI_SKIP = skipUnlessBuilt(VENV);

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
    args,
    config: slowapiConfig(options, fault, strategy),
    stream: 'stderr' as const,
    serving: /Uvicorn running on http:\/\/127\.0\.0\.1:(\d+) /,
  };
  return startChild(spec, options, VENV);
}
