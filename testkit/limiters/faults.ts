// The faulty twins: each correct limiter service below can be built wrong in one way, the way real teams
// get it wrong. Applied around the library, never inside it:
//   overAdmit       the minute quota is configured too high while the headers still report the plan
//                   (Limit = plan, Remaining lowered by the excess, ≥ 0): windows admit one request too
//                   many (+1 per window, an off-by-one); buckets are sized 25 % over the plan (a +1 would
//                   hide inside what a bucket refills while petcert counts, and a bucket sized for the
//                   burst is the usual mistake);
//   wrongRemaining  Remaining is one too high on admitted answers (counted before the request, not after);
//   noRetryAfter    the 429 leaves without Retry-After (a custom handler that forgot it);
//   noDay           the day quota is not enforced (its limiter left out).
import type { RequestHandler, Response } from 'express';
import { RATE_LIMIT_HEADERS } from '../../spec/contract.ts';
import { callerOf } from './store-app.ts';

export const LIMITER_FAULTS = ['overAdmit', 'wrongRemaining', 'noRetryAfter', 'noDay'] as const;
export type LimiterFault = (typeof LIMITER_FAULTS)[number];

/** How much overAdmit adds to a plan's minute figure: +1 for windows, +25 % for refilling buckets. */
export function overAdmitExcess(perMinute: number, model: 'window' | 'bucket'): number {
  return model === 'window' ? 1 : Math.ceil(perMinute / 4);
}

/** The minute figure the limiter is configured with. */
export const minuteFigure = (
  perMinute: number,
  fault: LimiterFault | undefined,
  model: 'window' | 'bucket' = 'window',
): number => (fault === 'overAdmit' ? perMinute + overAdmitExcess(perMinute, model) : perMinute);

/** Runs `fix` on the response just before its head is written (after every middleware set its headers). */
export function beforeHead(fix: (res: Response) => void): RequestHandler {
  return (_req, res, next) => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: unknown[]) {
      fix(res);
      return (writeHead as (...a: unknown[]) => Response).apply(this, args);
    } as Response['writeHead'];
    next();
  };
}

const header = (res: Response, name: string): number | undefined => {
  const value = res.getHeader(name);
  return value === undefined ? undefined : Number(value);
};

function shiftRemaining(res: Response, by: number): void {
  const remaining = header(res, RATE_LIMIT_HEADERS.remaining);
  if (remaining !== undefined) res.setHeader(RATE_LIMIT_HEADERS.remaining, String(Math.max(0, remaining + by)));
}

function fixFor(fault: LimiterFault, model: 'window' | 'bucket'): ((res: Response) => void) | undefined {
  if (fault === 'noRetryAfter')
    return (res) => void (res.statusCode === 429 && res.removeHeader(RATE_LIMIT_HEADERS.retryAfter));
  if (fault === 'wrongRemaining') return (res) => void (res.statusCode < 400 && shiftRemaining(res, 1));
  if (fault === 'overAdmit') {
    return (res) => {
      const perMinute = callerOf(res)?.plan.perMinute;
      if (perMinute === undefined) return;
      const excess = overAdmitExcess(perMinute, model);
      if (header(res, RATE_LIMIT_HEADERS.limit) !== perMinute + excess) return;
      res.setHeader(RATE_LIMIT_HEADERS.limit, String(perMinute));
      shiftRemaining(res, -excess);
    };
  }
  return undefined; // noDay: the service leaves its day limiter out
}

/** The middleware that makes a correct service its faulty twin (none for a correct one or noDay). */
export function faultHook(fault: LimiterFault | undefined, model: 'window' | 'bucket' = 'window'): RequestHandler[] {
  const fix = fault === undefined ? undefined : fixFor(fault, model);
  return fix === undefined ? [] : [beforeHead(fix)];
}
