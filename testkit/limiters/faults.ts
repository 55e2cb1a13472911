// The faulty twins: each correct limiter service below can be built wrong in one way, the way real teams
// get it wrong. Applied around the library, never inside it:
//   overAdmit       the minute quota is configured one request too high (+1 per window, an off-by-one),
//                   while the headers still report the plan (Limit = plan, Remaining one lower, ≥ 0);
//   wrongRemaining  Remaining is one too high on admitted answers (counted before the request, not after);
//   noRetryAfter    the 429 leaves without Retry-After (a custom handler that forgot it);
//   noDay           the day quota is not enforced (its limiter left out).
import type { RequestHandler, Response } from 'express';
import { RATE_LIMIT_HEADERS } from '../../spec/contract.ts';
import { callerOf } from './store-app.ts';

export const LIMITER_FAULTS = ['overAdmit', 'wrongRemaining', 'noRetryAfter', 'noDay'] as const;
export type LimiterFault = (typeof LIMITER_FAULTS)[number];

/** The minute figure the limiter is configured with. */
export const minuteFigure = (perMinute: number, fault: LimiterFault | undefined): number =>
  fault === 'overAdmit' ? perMinute + 1 : perMinute;

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

function fixFor(fault: LimiterFault): ((res: Response) => void) | undefined {
  if (fault === 'noRetryAfter') return (res) => void (res.statusCode === 429 && res.removeHeader(RATE_LIMIT_HEADERS.retryAfter));
  if (fault === 'wrongRemaining') return (res) => void (res.statusCode < 400 && shiftRemaining(res, 1));
  if (fault === 'overAdmit') {
    return (res) => {
      const perMinute = callerOf(res)?.plan.perMinute;
      if (perMinute === undefined || header(res, RATE_LIMIT_HEADERS.limit) !== perMinute + 1) return;
      res.setHeader(RATE_LIMIT_HEADERS.limit, String(perMinute));
      shiftRemaining(res, -1);
    };
  }
  return undefined; // noDay: the service leaves its day limiter out
}

/** The middleware that makes a correct service its faulty twin (none for a correct one or noDay). */
export function faultHook(fault: LimiterFault | undefined): RequestHandler[] {
  const fix = fault === undefined ? undefined : fixFor(fault);
  return fix === undefined ? [] : [beforeHead(fix)];
}
