// The chi + go-chi/httprate service (go/main.go), from the binary go/setup.sh builds in .cache/ (.ci/run
// builds it). Like the slowapi venv: without the binary its tests are skipped on a developer's machine,
// and the title says why; in CI (CI=true) they fail instead.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { IN_CI } from '../k6/k6.ts';
import { childConfig, startChild } from './child-service.ts';
import type { LimiterFault } from './faults.ts';
import type { RunningService, ServiceOptions } from './store-app.ts';

export const HTTPRATE_BINARY = fileURLToPath(new URL('../../.cache/limiters-go/httprate', import.meta.url));

/** Why the httprate tests are skipped here (undefined: they run, and fail in CI without the binary). */
export const HTTPRATE_SKIP: string | undefined =
  existsSync(HTTPRATE_BINARY) || IN_CI
    ? undefined
    : 'skipped: the httprate service is not built — run bash testkit/limiters/go/setup.sh';

export function httprateService(options: ServiceOptions, fault?: LimiterFault): Promise<RunningService> {
  if (!existsSync(HTTPRATE_BINARY))
    return Promise.reject(
      new Error(`no httprate service at ${HTTPRATE_BINARY}: run bash testkit/limiters/go/setup.sh`),
    );
  const spec = {
    name: 'the httprate service',
    command: HTTPRATE_BINARY,
    args: [],
    config: childConfig(options, fault),
    stream: 'stdout' as const,
    serving: /listening on http:\/\/127\.0\.0\.1:(\d+)\n/,
  };
  return startChild(spec, options);
}
