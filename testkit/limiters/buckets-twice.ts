// Two bucket limiters, one middleware per quota, each writing its own X-RateLimit-* (a gateway plugin per
// quota, or the same limiter library mounted twice): the minute's first (its headers on its 429), then the
// day's (its headers on every 200: the last to run wins). A correct server (spec/GAPS.md: two limiters; token
// bucket, GCRA) whose 200s never show the minute model. One quota's headers as metered.ts
// writes them (`admittedHeaders`, `refuse`).
import type { RequestHandler } from 'express';
import type { Plan } from '../../spec/plans.ts';
import { faultHook, minuteFigure } from './faults.ts';
import { admittedHeaders, refuse, type MeteredOptions, type MeterFactory, type Quota } from './metered.ts';
import { callerOf, serveApp, storeApp, windowMs, type RunningService } from './store-app.ts';
import { tokenBucketMeter } from './token-bucket.ts';

/** One quota's middleware: its own meter per key, its own headers (metered.ts writes them). */
function quotaLimiter(figureOf: (plan: Plan) => number, lengthMs: number, meter: MeterFactory): RequestHandler {
  const meters = new Map<string, Quota>();
  return (_req, res, next) => {
    const { key, plan } = callerOf(res);
    let q = meters.get(key);
    if (!q) meters.set(key, (q = { figure: figureOf(plan), meter: meter(figureOf(plan), lengthMs) }));
    const now = Date.now();
    if (q.meter.room(now) < 1) return refuse(res, q, now);
    q.meter.take(now);
    admittedHeaders(res, q, now);
    next();
  };
}

export function bucketsTwice(options: MeteredOptions, meter: MeterFactory): RequestHandler[] {
  const minute = quotaLimiter(
    (plan) => minuteFigure(plan.perMinute, options.fault, 'bucket'),
    windowMs(options.plans, 'minute'),
    meter,
  );
  const day =
    options.fault === 'noDay' ? [] : [quotaLimiter((plan) => plan.perDay, windowMs(options.plans, 'day'), meter)];
  return [...faultHook(options.fault, 'bucket'), minute, ...day];
}

/** The `limiter` package's TokenBucket, mounted once per quota. */
export function tokenBucketTwiceService(options: MeteredOptions): Promise<RunningService> {
  return serveApp(storeApp(options, bucketsTwice(options, tokenBucketMeter)), options.keys);
}
