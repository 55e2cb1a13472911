// Express 5 + rate-limiter-flexible 11: RateLimiterMemory per quota (minute, day) and plan, keyed by API
// key, one middleware per quota, headers set as the library's README shows them:
//   Retry-After: msBeforeNext / 1000 (a decimal number of seconds, e.g. 1.234)
//   X-RateLimit-Limit: points, X-RateLimit-Remaining: remainingPoints,
//   X-RateLimit-Reset: Math.ceil((Date.now() + msBeforeNext) / 1000)
// on admitted answers and on the 429 alike, so the last quota that ran writes them (minute, then day).
// A key's window starts at its first request after the last one ended; refused requests are counted too
// (consume() counts before it refuses), in the current windows only.
import type { RequestHandler, Response } from 'express';
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { RATE_LIMIT_HEADERS } from '../../spec/contract.ts';
import { faultHook, minuteFigure, type LimiterFault } from './faults.ts';
import { callerOf, sendError, serveApp, storeApp, type RunningService, type ServiceOptions } from './store-app.ts';

export interface RlfOptions extends ServiceOptions {
  fault?: LimiterFault;
}

/** How X-RateLimit-Reset rounds the window's end to whole seconds: up (the README's Math.ceil) or down. */
export type ResetRounding = 'ceil' | 'floor';

/** One rate-limiter-flexible limiter of `points` per `duration` seconds: RateLimiterMemory unless a store is given. */
export type MakeLimiter = (opts: { points: number; duration: number; keyPrefix: string }) => RateLimiterAbstract;

const memory: MakeLimiter = (opts) => new RateLimiterMemory(opts);

function setHeaders(
  res: Response,
  points: number,
  result: RateLimiterRes,
  refused: boolean,
  rounding: ResetRounding,
): void {
  if (refused) res.setHeader(RATE_LIMIT_HEADERS.retryAfter, String(result.msBeforeNext / 1000));
  res.setHeader(RATE_LIMIT_HEADERS.limit, String(points));
  res.setHeader(RATE_LIMIT_HEADERS.remaining, String(result.remainingPoints));
  res.setHeader(RATE_LIMIT_HEADERS.reset, String(Math[rounding]((Date.now() + result.msBeforeNext) / 1000)));
}

function quotaLimiter(
  options: RlfOptions,
  kind: 'minute' | 'day',
  make: MakeLimiter,
  rounding: ResetRounding,
): RequestHandler {
  const seconds = kind === 'minute' ? options.plans.windows.minuteSeconds : options.plans.windows.daySeconds;
  const byPlan = new Map<string, { points: number; limiter: RateLimiterAbstract }>();
  const limiterOf = (plan: { name: string; perMinute: number; perDay: number }) => {
    let entry = byPlan.get(plan.name);
    if (!entry) {
      const points = kind === 'minute' ? minuteFigure(plan.perMinute, options.fault) : plan.perDay;
      entry = { points, limiter: make({ points, duration: seconds, keyPrefix: `${kind}:${plan.name}` }) };
      byPlan.set(plan.name, entry);
    }
    return entry;
  };
  return (_req, res, next) => {
    const { key, plan } = callerOf(res);
    const { points, limiter } = limiterOf(plan);
    limiter.consume(key).then(
      (result) => {
        setHeaders(res, points, result, false, rounding);
        next();
      },
      (rejection: unknown) => {
        if (!(rejection instanceof RateLimiterRes)) return next(rejection);
        setHeaders(res, points, rejection, true, rounding);
        sendError(res, 429, `${kind} rate limit exceeded`);
      },
    );
  };
}

export function rlfLimiters(
  options: RlfOptions,
  make: MakeLimiter = memory,
  rounding: ResetRounding = 'ceil',
): RequestHandler[] {
  const day = options.fault === 'noDay' ? [] : [quotaLimiter(options, 'day', make, rounding)];
  return [...faultHook(options.fault), quotaLimiter(options, 'minute', make, rounding), ...day];
}

export function rlfService(options: RlfOptions): Promise<RunningService> {
  return serveApp(storeApp(options, rlfLimiters(options)), options.keys);
}
