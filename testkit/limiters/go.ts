// The chi services of go/main.go (go-chi/httprate, sethvargo/go-limiter or ulule/limiter), from the binary go/setup.sh
// builds in .cache/ (.ci/run builds it); without it, their tests are skipped here and fail in CI
// (child-service.ts).
import { fileURLToPath } from 'node:url';
import { childConfig, skipUnlessBuilt, startChild, type Built } from './child-service.ts';
import type { LimiterFault } from './faults.ts';
import type { RunningService, ServiceOptions } from './store-app.ts';

const BINARY: Built = {
  what: 'the httprate service',
  path: fileURLToPath(new URL('../../.cache/limiters-go/httprate', import.meta.url)),
  setup: 'bash testkit/limiters/go/setup.sh',
};

/** Why the Go services' tests are skipped here (undefined: they run, and fail in CI without the binary). */
export const GO_SKIP = skipUnlessBuilt(BINARY);

export type GoLibrary = 'httprate' | 'go-limiter' | 'ulule';

export function goService(library: GoLibrary, options: ServiceOptions, fault?: LimiterFault): Promise<RunningService> {
  const spec = {
    name: `the ${library} service`,
    args: [],
    config: childConfig(options, fault, { library }),
    stream: 'stdout' as const,
    serving: /listening on http:\/\/127\.0\.0\.1:(\d+)\n/,
  };
  return startChild(spec, options, BINARY);
}
