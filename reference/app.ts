// The reference server as a pure request handler: auth → rate limiter → routes → store.
// No socket here: tests call `handle` in-process with an injected clock; reference/server.ts adapts it.
import { resolvePlan, specPlanTable, type Plan, type PlanTable } from '../spec/plans.ts';
import { RATE_LIMIT_HEADERS } from '../spec/contract.ts';
import { bearerToken } from './auth.ts';
import type { ReferenceFaults } from './faults.ts';
import { anonymousPlan, defaultKeys, resolveKeys } from './keys.ts';
import { createLimiter, type Decision, type RateHeaders } from './limiter.ts';
import { createDateHeader, errorResponse } from './responses.ts';
import { BASE_PATH, deprecationHeaders, route, type RouteContext } from './routes.ts';
import { parseNewPet } from './body.ts';
import { createStore, DEFAULT_MAX_PETS } from './store.ts';
import type { AppRequest, AppResponse, Handle } from './types.ts';
import { resolveVariants, type ReferenceVariants, type ResolvedVariants } from './variants.ts';

export interface ReferenceOptions {
  /** Default: specPlanTable() (custom plans without figures get no default key). */
  plans?: PlanTable;
  /** API key → plan name; default: one random key per concrete plan. */
  keys?: Record<string, string>;
  /** ms clock (tests inject fakes). */
  now?: () => number;
  /** Memory bound of the store; at the bound the oldest pet is evicted. Default 100,000. */
  maxPets?: number;
  /** Request bodies larger than this get 413. Default 64 KiB. */
  maxBodyBytes?: number;
  faults?: ReferenceFaults;
  variants?: ReferenceVariants;
  /** Where unexpected errors are logged (default console.error). */
  log?: (message: string) => void;
}

export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

export interface App {
  handle: Handle;
  keys: Record<string, string>;
  /** The X-RateLimit-* headers a request without a valid key gets (also used for malformed HTTP). */
  anonymousHeaders(nowMs: number): Record<string, string>;
}

function rateHeaders(h: RateHeaders): Record<string, string> {
  return {
    [RATE_LIMIT_HEADERS.limit]: String(h.limit),
    [RATE_LIMIT_HEADERS.remaining]: String(h.remaining),
    [RATE_LIMIT_HEADERS.reset]: String(h.reset),
  };
}

/** §7/§8.3: the 429, with Retry-After consistent with the binding quota's reset. */
function tooMany(decision: Decision, nowMs: number, faults: ReferenceFaults, variants: ResolvedVariants): AppResponse {
  const seconds = Math.max(1, Math.ceil(((decision.retryAtMs ?? nowMs) - nowMs) / 1000));
  const headers: Record<string, string> = {};
  const retryAfter = retryAfterValue(seconds, nowMs, faults, variants);
  if (retryAfter !== undefined) headers[RATE_LIMIT_HEADERS.retryAfter] = retryAfter;
  const message = `rate limit exceeded: retry after ${seconds} s`;
  if (variants.tooManyBody === 'empty') return { status: 429, headers, body: '' };
  if (variants.tooManyBody === 'text')
    return { status: 429, headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' }, body: message };
  return errorResponse(429, message, variants.errorContentType, headers);
}

function retryAfterValue(
  seconds: number,
  nowMs: number,
  faults: ReferenceFaults,
  variants: ResolvedVariants,
): string | undefined {
  if (faults.retryAfter === 'missing') return undefined; // fault
  if (faults.retryAfter === 'zero') return '0'; // fault
  const wait = faults.retryAfter === 'tooLong' ? seconds + 86_400 : seconds; // fault: a day too long
  if (variants.retryAfterForm === 'http-date') return new Date((Math.floor(nowMs / 1000) + wait) * 1000).toUTCString();
  return String(wait);
}

export function createApp(options: ReferenceOptions = {}): App {
  const table = options.plans ?? specPlanTable();
  const keys = options.keys ?? defaultKeys(table);
  const plans = resolveKeys(table, keys);
  const faults = options.faults ?? {};
  const variants = resolveVariants(options.variants);
  const now = options.now ?? Date.now;
  const log = options.log ?? ((m: string) => console.error(m));
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const limiter = createLimiter(table.windows, faults, variants);
  const anonymous = anonymousPlan(table);
  const dateHeader = createDateHeader();
  const ctx: RouteContext = {
    store: createStore(options.maxPets ?? DEFAULT_MAX_PETS),
    variants,
    deprecationHeaders: deprecationHeaders(),
  };
  // fault: planAlias — a key on plan A is limited (and reported) with plan B's figures.
  const limitedAs = (plan: Plan): Plan => {
    const alias = faults.planAlias?.[plan.name];
    return alias === undefined ? plan : resolvePlan(table, alias);
  };
  const limitPlans = new Map([...plans].map(([key, plan]) => [key, limitedAs(plan)]));

  /** 401s are not counted: an unknown caller has no quota. They report the free plan's untouched minute window. */
  function anonymousHeaders(nowMs: number): Record<string, string> {
    const reset = (Math.floor(nowMs / 1000 / table.windows.minuteSeconds) + 1) * table.windows.minuteSeconds;
    return rateHeaders({ limit: anonymous.perMinute, remaining: anonymous.perMinute, reset });
  }

  const bucketOf = (key: string) => (faults.sharedBucket ? '*shared*' : key); // fault: sharedBucket

  /** fault: racy — decide, then a simulated 20 ms round trip to a shared counter store, then count. */
  async function admitRacily(key: string, plan: Plan, nowMs: number): Promise<Decision> {
    const early = limiter.peek(bucketOf(key), plan, nowMs);
    await new Promise((resolve) => setTimeout(resolve, 20));
    return limiter.take(bucketOf(key), plan, now(), early.admitted);
  }

  // Synchronous unless the racy fault is on: the correct limiter decides and counts in one step.
  function serve(req: AppRequest, nowMs: number): AppResponse | Promise<AppResponse> {
    const key = bearerToken(req.headers.authorization);
    const plan = key === undefined ? undefined : limitPlans.get(key);
    if (key === undefined || plan === undefined) {
      const invalid = variants.precedence === 'validation' ? validationFirst(req, nowMs) : undefined; // variant: precedence
      if (invalid) return invalid;
      const message =
        req.headers.authorization === undefined
          ? 'missing API key (Authorization: Bearer <API_KEY>)'
          : 'invalid API key';
      const res = errorResponse(401, message, variants.errorContentType, { 'www-authenticate': 'Bearer' });
      Object.assign(res.headers, anonymousHeaders(nowMs));
      return res;
    }
    if (faults.racy) return admitRacily(key, plan, nowMs).then((decision) => answer(req, decision, nowMs));
    return answer(req, limiter.take(bucketOf(key), plan, nowMs), nowMs);
  }

  function answer(req: AppRequest, decision: Decision, nowMs: number): AppResponse {
    const res = decision.admitted ? routeAdmitted(req) : tooMany(decision, nowMs, faults, variants);
    Object.assign(res.headers, rateHeaders(decision.headers));
    return res;
  }

  /** variant precedence 'validation': an invalid NewPet is refused with 400 before credentials are looked at. */
  function validationFirst(req: AppRequest, nowMs: number): AppResponse | undefined {
    if (req.method !== 'POST' || req.path.split('?')[0] !== `${BASE_PATH}/pets` || req.oversize) return undefined;
    const parsed = parseNewPet(req.body, variants);
    if (parsed.ok) return undefined;
    return errorResponse(400, parsed.message, variants.errorContentType, anonymousHeaders(nowMs));
  }

  function routeAdmitted(req: AppRequest): AppResponse {
    if (req.oversize || req.body.length > maxBodyBytes) {
      return errorResponse(413, `request body is larger than ${maxBodyBytes} bytes`, variants.errorContentType);
    }
    return route(ctx, req);
  }

  function internalError(req: AppRequest, nowMs: number, error: unknown): AppResponse {
    // A bug, never an input problem: still a well-formed answer, and a log line to find it.
    log(
      `petcert reference: internal error on ${req?.method} ${String(req?.path).slice(0, 200)}: ${error instanceof Error ? error.stack : String(error)}`,
    );
    return errorResponse(500, 'internal error', variants.errorContentType, anonymousHeaders(nowMs));
  }

  const dated = (res: AppResponse, nowMs: number): AppResponse => {
    res.headers.date = dateHeader(nowMs);
    return res;
  };

  const handle: Handle = (req) => {
    const nowMs = now();
    try {
      const res = serve(req, nowMs);
      if (!(res instanceof Promise)) return Promise.resolve(dated(res, nowMs));
      return res.then(
        (r) => dated(r, nowMs),
        (error: unknown) => dated(internalError(req, nowMs, error), nowMs),
      );
    } catch (error) {
      return Promise.resolve(dated(internalError(req, nowMs, error), nowMs));
    }
  };

  return { handle, keys: { ...keys }, anonymousHeaders };
}
