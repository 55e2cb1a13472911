// Fastify 5 + @fastify/rate-limit 11, set up as its README shows for several limits: the plugin registered twice in
// one context (its test "Allow multiple different rate limiter registrations"), once per quota, minute then day, each
// with its own in-memory LocalStore, keyed by API key (`keyGenerator`), the plan's figure from `max(req)`. Each
// registration's onRequest hook runs on every route in registration order and writes its own X-RateLimit-*, so a 200
// reports the day, a minute 429 the minute (its throw stops the day's hook: a minute 429 costs no day request).
// LocalStore (store/LocalStore.js) counts a fixed window from a key's first request after the last one ended
// (`iterationStartMs`) and counts refused requests too (`incr` before the check). The plugin's stock headers
// (index.js `rateLimitRequestHandler`): Limit = max, Remaining = max(0, max - current), Reset = ceil(ttl / 1000), the
// SECONDS UNTIL the window ends (its README: "how many seconds must pass"), not the Unix timestamp §8.2 asks for; on a
// 429 Remaining = 0 and Retry-After = the same ceil(ttl / 1000).
//   'stock'       the plugin's headers as they come (`fastify-stock`);
//   'window-end'  the fix a team writes (`fastify`): the plugin's `store` option wraps its own LocalStore to keep each
//                 key's window end in milliseconds (Date.now() + ttl, as the plugin computes ttl), its `onExceeding` /
//                 `onExceeded` callbacks note the end of the quota whose headers the answer carries, and an onSend hook
//                 writes that end as X-RateLimit-Reset = ceil(end / 1000). The delta alone cannot give it: it is
//                 rounded up to the second, so now + delta drifts by up to a second within one window.
// Auth (401 before any limiter) and the operations are store-app.ts's, ported to Fastify hooks and a catch-all route.
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import { RATE_LIMIT_HEADERS } from '../../spec/contract.ts';
import { bearerToken } from '../../reference/auth.ts';
import { anonymousPlan, resolveKeys } from '../../reference/keys.ts';
import { errorResponse, type ErrorStatus } from '../../reference/responses.ts';
import { BASE_PATH, deprecationHeaders, route, type RouteContext } from '../../reference/routes.ts';
import { createStore } from '../../reference/store.ts';
import type { AppResponse } from '../../reference/types.ts';
import { resolveVariants } from '../../reference/variants.ts';
import { minuteFigure, overAdmitExcess, type LimiterFault } from './faults.ts';
import { windowMs, type Caller, type RunningService, type ServiceOptions } from './store-app.ts';

export type ResetForm = 'stock' | 'window-end';

export interface FastifyLimiterOptions extends ServiceOptions {
  reset: ResetForm;
  fault?: LimiterFault;
}

/** The library's own memory store (no types ship for this path: the plugin builds it when no `store` is given). */
type LocalStoreCtor = new (continueExceeding: boolean, exponentialBackoff: boolean) => FastifyRateLimitStore;
const LocalStore = createRequire(import.meta.url)('@fastify/rate-limit/store/LocalStore.js') as LocalStoreCtor;

/** The plugin's LocalStore, recording each key's window end (ms) from the ttl it hands the plugin. */
function endRecordingStore(ends: Map<string, number>): FastifyRateLimitStoreCtor {
  return class EndRecordingStore implements FastifyRateLimitStore {
    private readonly inner = new LocalStore(false, false);
    constructor(_options: FastifyRateLimitOptions) {}
    incr(...[key, callback, timeWindow, max]: Parameters<FastifyRateLimitStore['incr']>): void {
      this.inner.incr(
        key,
        (error, result) => {
          // LocalStore answers synchronously: Date.now() is within a millisecond of the instant its ttl is measured at.
          if (result) ends.set(key, Date.now() + result.ttl);
          callback(error, result);
        },
        timeWindow,
        max,
      );
    }
    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      return new EndRecordingStore(routeOptions as FastifyRateLimitOptions);
    }
  };
}

function send(reply: FastifyReply, answer: AppResponse): FastifyReply {
  return reply.code(answer.status).headers(answer.headers).send(answer.body);
}

const sendError = (reply: FastifyReply, status: ErrorStatus, message: string, headers: Record<string, string> = {}) =>
  send(reply, errorResponse(status, message, undefined, headers));

/** The plugin throws what `errorResponseBuilder` returns; the error handler turns it into an Error body. */
class RateLimited extends Error {
  readonly statusCode = 429;
  constructor(kind: 'minute' | 'day') {
    super(`${kind} rate limit exceeded`);
  }
}

function shiftRemaining(reply: FastifyReply, by: number): void {
  const remaining = reply.getHeader(RATE_LIMIT_HEADERS.remaining);
  if (remaining !== undefined) reply.header(RATE_LIMIT_HEADERS.remaining, String(Math.max(0, Number(remaining) + by)));
}

/** faults.ts's twins on a Fastify reply (its `beforeHead` is Express's): the same change, just before the head. */
function applyFault(fault: LimiterFault | undefined, reply: FastifyReply, caller: Caller | undefined): void {
  if (fault === 'noRetryAfter' && reply.statusCode === 429) reply.removeHeader(RATE_LIMIT_HEADERS.retryAfter);
  if (fault === 'wrongRemaining' && reply.statusCode < 400) shiftRemaining(reply, 1);
  if (fault === 'overAdmit' && caller !== undefined) {
    const { perMinute } = caller.plan;
    const excess = overAdmitExcess(perMinute, 'window');
    if (Number(reply.getHeader(RATE_LIMIT_HEADERS.limit)) !== perMinute + excess) return;
    reply.header(RATE_LIMIT_HEADERS.limit, String(perMinute));
    shiftRemaining(reply, -excess);
  }
}

export async function fastifyService(options: FastifyLimiterOptions): Promise<RunningService> {
  const app = Fastify({ forceCloseConnections: true });
  const callers = new WeakMap<FastifyRequest, Caller>();
  const resets = new WeakMap<FastifyRequest, number>();
  const callerOf = (request: FastifyRequest): Caller => callers.get(request)!;

  // §5: no valid key → 401 before any limiter (instance hooks run before the plugin's route hooks), with the free
  // plan's untouched minute window as the headers, as store-app.ts answers it.
  const plans = resolveKeys(options.plans, options.keys);
  const anonymous = anonymousPlan(options.plans);
  app.addHook('onRequest', async (request, reply) => {
    const key = bearerToken(request.headers.authorization);
    const plan = key === undefined ? undefined : plans.get(key);
    if (key !== undefined && plan !== undefined) return void callers.set(request, { key, plan });
    const reset = Math.ceil((Date.now() + windowMs(options.plans, 'minute')) / 1000);
    return sendError(reply, 401, key === undefined ? 'missing API key' : 'invalid API key', {
      'www-authenticate': 'Bearer',
      [RATE_LIMIT_HEADERS.limit]: String(anonymous.perMinute),
      [RATE_LIMIT_HEADERS.remaining]: String(anonymous.perMinute),
      [RATE_LIMIT_HEADERS.reset]: String(reset),
    });
  });

  const quotas = options.fault === 'noDay' ? (['minute'] as const) : (['minute', 'day'] as const);
  for (const kind of quotas) {
    const ends = new Map<string, number>();
    const noteEnd = (request: FastifyRequest, key: string) => {
      const end = ends.get(key);
      if (end !== undefined) resets.set(request, Math.ceil(end / 1000));
    };
    await app.register(rateLimit, {
      timeWindow: windowMs(options.plans, kind),
      max: (request) => {
        const { plan } = callerOf(request);
        return kind === 'minute' ? minuteFigure(plan.perMinute, options.fault) : plan.perDay;
      },
      keyGenerator: (request) => callerOf(request).key,
      errorResponseBuilder: () => new RateLimited(kind),
      ...(options.reset === 'window-end'
        ? { store: endRecordingStore(ends), onExceeding: noteEnd, onExceeded: noteEnd }
        : {}),
    });
  }

  // The fix and the fault run on every answer, 429s and 401s included, after every hook has set its headers.
  app.addHook('onSend', async (request, reply, payload) => {
    const reset = resets.get(request);
    if (reset !== undefined && reply.hasHeader(RATE_LIMIT_HEADERS.reset))
      reply.header(RATE_LIMIT_HEADERS.reset, String(reset));
    applyFault(options.fault, reply, callers.get(request));
    return payload;
  });

  // The reference's operations on the raw body, whatever its type; 404/405 as the reference answers them, so every
  // path passes auth and the limiters (the plugin limits routes only, not the not-found handler).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_request, body, done) =>
    done(null, body),
  );
  const ctx: RouteContext = {
    store: createStore(),
    variants: resolveVariants(),
    deprecationHeaders: deprecationHeaders(),
  };
  app.all('/*', async (request, reply) => {
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers[name] = value;
    return send(reply, route(ctx, { method: request.method, path: request.url, headers, body }));
  });

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (error instanceof RateLimited) return sendError(reply, 429, error.message);
    if (error.statusCode === 413) return sendError(reply, 413, 'request body too large');
    console.error(`limiter service: ${String(error)}`);
    return sendError(reply, 500, 'internal error');
  });

  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${BASE_PATH}`,
    keys: { ...options.keys },
    close: () => app.close(),
  };
}
