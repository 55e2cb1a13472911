// One way to start any limiter service by name, behind the wrappers when asked: what the e2e proofs,
// the repeat bench and serve.ts share.
import type { LimiterFault } from './faults.ts';
import { goService, type GoLibrary } from './go.ts';
import { slowapiService, type SlowapiStrategy } from './python.ts';
import { isNodeService, NODE_SERVICES } from './services.ts';
import type { RunningService, ServiceOptions } from './store-app.ts';
import { wrapServer, type WrapOptions } from './wrappers.ts';

/** FastAPI + slowapi under uvicorn (python.ts), by its `strategy`: the stock fixed window, limits' moving window or its sliding-window counter. */
const PYTHON_SERVICES = {
  slowapi: 'fixed-window',
  'slowapi-moving-window': 'moving-window',
  'slowapi-sliding-counter': 'sliding-window-counter',
} as const satisfies Record<string, SlowapiStrategy>;

/**
 * chi (go.ts) with go-chi/httprate, a sliding window counter aligned to the limiter's start, Reset rounded down;
 * with sethvargo/go-limiter, a window from the key's first request, Reset and Retry-After RFC 1123 dates in UTC;
 * with ulule/limiter, a window from the key's first request, each middleware adding its headers, no Retry-After.
 */
const GO_SERVICES = { httprate: 'httprate', 'go-limiter': 'go-limiter', ulule: 'ulule' } as const satisfies Record<
  string,
  GoLibrary
>;

export const SERVICE_NAMES: string[] = [
  ...Object.keys(NODE_SERVICES),
  ...Object.keys(PYTHON_SERVICES),
  ...Object.keys(GO_SERVICES),
];

export interface StartOptions extends ServiceOptions {
  fault?: LimiterFault;
  wrap?: WrapOptions;
}

const wraps = (w: WrapOptions | undefined): boolean =>
  w !== undefined && ((w.latencyMs ?? 0) > 0 || (w.jitterMs ?? 0) > 0 || (w.skewSeconds ?? 0) !== 0);

function startBare(name: string, base: ServiceOptions, fault: LimiterFault | undefined): Promise<RunningService> {
  if (Object.hasOwn(PYTHON_SERVICES, name))
    return slowapiService(base, fault, PYTHON_SERVICES[name as keyof typeof PYTHON_SERVICES]);
  if (Object.hasOwn(GO_SERVICES, name)) return goService(GO_SERVICES[name as keyof typeof GO_SERVICES], base, fault);
  if (!isNodeService(name))
    throw new Error(`no limiter service named ${JSON.stringify(name)} (${SERVICE_NAMES.join(', ')})`);
  return NODE_SERVICES[name](base, fault);
}

export async function startService(name: string, options: StartOptions): Promise<RunningService> {
  const base = { plans: options.plans, keys: options.keys };
  const service = await startBare(name, base, options.fault);
  if (!wraps(options.wrap)) return service;
  const wrapped = await wrapServer(service.baseUrl, options.wrap!);
  return {
    baseUrl: wrapped.baseUrl,
    keys: service.keys,
    close: async () => {
      await wrapped.close();
      await service.close();
    },
  };
}
