// Express 5 + express-rate-limit 8, set up as many teams do: two independent limiters (one for
// the minute quota, one for the day), `legacyHeaders: true` (X-RateLimit-Limit/-Remaining/-Reset, Reset
// rounded up to the second), the default in-memory store, keyed by API key. Each limiter writes its own
// headers, so an answer carries those of the last limiter that ran: with order 'minute-day' (the common
// setup) a 200 reports the day quota and a minute 429 the minute quota; 'day-minute' is the variant where
// the minute limiter runs last, so admitted answers report the minute. The memory store starts a key's
// window at the key's first request after its last window ended (not aligned to anything).
import { rateLimit, type Options } from 'express-rate-limit';
import type { RequestHandler } from 'express';
import { errorResponse } from '../../reference/responses.ts';
import { faultHook, minuteFigure, type LimiterFault } from './faults.ts';
import { callerOf, serveApp, storeApp, windowMs, type RunningService, type ServiceOptions } from './store-app.ts';

export interface ErlOptions extends ServiceOptions {
  order?: 'minute-day' | 'day-minute';
  fault?: LimiterFault;
}

function quotaLimiter(options: ErlOptions, kind: 'minute' | 'day'): RequestHandler {
  const limit = (plan: { perMinute: number; perDay: number }): number =>
    kind === 'minute' ? minuteFigure(plan.perMinute, options.fault) : plan.perDay;
  const config: Partial<Options> = {
    windowMs: windowMs(options.plans, kind),
    limit: (_req, res) => limit(callerOf(res).plan),
    keyGenerator: (_req, res) => callerOf(res).key,
    legacyHeaders: true,
    standardHeaders: false,
    statusCode: 429,
    // §7: the 429 carries an Error body.
    message: () => JSON.parse(errorResponse(429, `${kind} rate limit exceeded`).body) as object,
  };
  return rateLimit(config);
}

export function erlLimiters(options: ErlOptions): RequestHandler[] {
  const minute = quotaLimiter(options, 'minute');
  const day = options.fault === 'noDay' ? [] : [quotaLimiter(options, 'day')];
  const ordered = options.order === 'day-minute' ? [...day, minute] : [minute, ...day];
  return [...faultHook(options.fault), ...ordered];
}

export function erlService(options: ErlOptions): Promise<RunningService> {
  return serveApp(storeApp(options, erlLimiters(options)), options.keys);
}
