// Two bucket limiters, one middleware per quota, each writing its own X-RateLimit-* (a gateway plugin per
// quota, or the same limiter library mounted twice): the minute's first (its headers on its 429), then the
// day's (its headers on every 200: the last to run wins). A correct server (spec/GAPS.md: two limiters; token
// bucket, GCRA) whose 200s never show the minute model: review R3 of #15. One quota's headers as metered.ts
// writes them: Limit its figure, Remaining its whole requests left, Reset when full again; a 429's Reset and
// Retry-After (whole seconds, rounded up) when one request fits again.
import type { RequestHandler } from 'express';
import type { Plan } from '../../spec/plans.ts';
import { RATE_LIMIT_HEADERS } from '../../spec/contract.ts';
import { faultHook, minuteFigure } from './faults.ts';
import type { Meter, MeteredOptions, MeterFactory } from './metered.ts';
import { callerOf, sendError, serveApp, storeApp, windowMs, type RunningService } from './store-app.ts';
import { tokenBucketMeter } from './token-bucket.ts';

/** One quota's middleware: its own meter per key, its own headers. */
function quotaLimiter(figureOf: (plan: Plan) => number, lengthMs: number, meter: MeterFactory): RequestHandler {
  const meters = new Map<string, { figure: number; meter: Meter }>();
  return (_req, res, next) => {
    const { key, plan } = callerOf(res);
    let q = meters.get(key);
    if (!q) meters.set(key, (q = { figure: figureOf(plan), meter: meter(figureOf(plan), lengthMs) }));
    const now = Date.now();
    res.setHeader(RATE_LIMIT_HEADERS.limit, String(q.figure));
    if (q.meter.room(now) < 1) {
      const retryAt = q.meter.oneAtMs(now);
      res.setHeader(RATE_LIMIT_HEADERS.remaining, '0');
      res.setHeader(RATE_LIMIT_HEADERS.reset, String(Math.ceil(retryAt / 1000)));
      res.setHeader(RATE_LIMIT_HEADERS.retryAfter, String(Math.max(1, Math.ceil((retryAt - now) / 1000))));
      return sendError(res, 429, 'rate limit exceeded');
    }
    q.meter.take(now);
    res.setHeader(RATE_LIMIT_HEADERS.remaining, String(Math.max(0, Math.floor(q.meter.room(now) + 1e-9))));
    res.setHeader(RATE_LIMIT_HEADERS.reset, String(Math.ceil(q.meter.fullAtMs(now) / 1000)));
    next();
  };
}

export function bucketsTwice(options: MeteredOptions, meter: MeterFactory): RequestHandler[] {
  const minute = quotaLimiter((plan) => minuteFigure(plan.perMinute, options.fault, 'bucket'), windowMs(options.plans, 'minute'), meter);
  const day = options.fault === 'noDay' ? [] : [quotaLimiter((plan) => plan.perDay, windowMs(options.plans, 'day'), meter)];
  return [...faultHook(options.fault, 'bucket'), minute, ...day];
}

/** The `limiter` package's TokenBucket, mounted once per quota. */
export function tokenBucketTwiceService(options: MeteredOptions): Promise<RunningService> {
  return serveApp(storeApp(options, bucketsTwice(options, tokenBucketMeter)), options.keys);
}
