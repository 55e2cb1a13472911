// One middleware for the continuous models (token bucket, GCRA): a meter per quota and key, a request
// admitted only when every quota has room, then charged to all. Headers, as gateways with these models
// report them: the quota with the fewest whole requests left (ties: the minute); Limit its figure,
// Remaining its whole requests left, Reset when it is full again; a 429 reports the quota that refused
// (the later one if both), Reset and Retry-After (integer seconds, rounded up) when one request fits again.
import type { RequestHandler, Response } from 'express';
import type { Plan } from '../../spec/plans.ts';
import { RATE_LIMIT_HEADERS } from '../../spec/contract.ts';
import { faultHook, minuteFigure, type LimiterFault } from './faults.ts';
import { callerOf, sendError, windowMs, type ServiceOptions } from './store-app.ts';

/** One quota of one key. Times in ms on Date.now(). */
export interface Meter {
  /** Requests that fit now (fractional while refilling). */
  room(nowMs: number): number;
  take(nowMs: number): void;
  /** When the meter is full again. */
  fullAtMs(nowMs: number): number;
  /** When one more request fits. */
  oneAtMs(nowMs: number): number;
}

/** A meter holding `figure` requests, refilled at `figure` per `lengthMs`. */
export type MeterFactory = (figure: number, lengthMs: number) => Meter;

export interface MeteredOptions extends ServiceOptions {
  fault?: LimiterFault;
}

/** One quota of one key: its figure and its meter. */
export interface Quota {
  figure: number;
  meter: Meter;
}

const whole = (q: Quota, now: number): number => Math.max(0, Math.floor(q.meter.room(now) + 1e-9));

function setHeaders(res: Response, q: Quota, resetMs: number): void {
  res.setHeader(RATE_LIMIT_HEADERS.limit, String(q.figure));
  res.setHeader(RATE_LIMIT_HEADERS.reset, String(Math.ceil(resetMs / 1000)));
}

/** An admitted answer's headers from `q`, once the request was taken: its whole requests left, Reset when full again. */
export function admittedHeaders(res: Response, q: Quota, now: number): void {
  setHeaders(res, q, q.meter.fullAtMs(now));
  res.setHeader(RATE_LIMIT_HEADERS.remaining, String(whole(q, now)));
}

/** The 429 of `q`: Remaining 0, Reset and Retry-After (whole seconds, rounded up) when one request fits again. */
export function refuse(res: Response, q: Quota, now: number): void {
  const retryAt = q.meter.oneAtMs(now);
  setHeaders(res, q, retryAt);
  res.setHeader(RATE_LIMIT_HEADERS.remaining, '0');
  res.setHeader(RATE_LIMIT_HEADERS.retryAfter, String(Math.max(1, Math.ceil((retryAt - now) / 1000))));
  sendError(res, 429, 'rate limit exceeded');
}

export function meteredLimiters(options: MeteredOptions, meter: MeterFactory): RequestHandler[] {
  const keys = new Map<string, Quota[]>();
  const quotasOf = (key: string, plan: Plan): Quota[] => {
    let quotas = keys.get(key);
    if (!quotas) {
      const minute = minuteFigure(plan.perMinute, options.fault, 'bucket');
      quotas = [{ figure: minute, meter: meter(minute, windowMs(options.plans, 'minute')) }];
      if (options.fault !== 'noDay')
        quotas.push({ figure: plan.perDay, meter: meter(plan.perDay, windowMs(options.plans, 'day')) });
      keys.set(key, quotas);
    }
    return quotas;
  };
  const limiter: RequestHandler = (_req, res, next) => {
    const { key, plan } = callerOf(res);
    const quotas = quotasOf(key, plan);
    const now = Date.now();
    const refusing = quotas.filter((q) => q.meter.room(now) < 1);
    if (refusing.length > 0) {
      return refuse(
        res,
        refusing.reduce((a, b) => (b.meter.oneAtMs(now) > a.meter.oneAtMs(now) ? b : a)),
        now,
      );
    }
    for (const q of quotas) q.meter.take(now);
    admittedHeaders(
      res,
      quotas.reduce((a, b) => (whole(b, now) < whole(a, now) ? b : a)),
      now,
    );
    next();
  };
  return [...faultHook(options.fault, 'bucket'), limiter];
}
