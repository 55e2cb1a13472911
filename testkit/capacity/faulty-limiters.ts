// Limiters that are right at low load and wrong under load, as wraps of the reference handler
// (listen({ wrap })). Each fault is one behaviour above an aggregate request rate:
//   throttlesBelowQuota: every 5th request gets 429 + Retry-After, whatever the key's quota says
//                        (a shared, overloaded limiter shedding load on keys far below their quota);
//   overAdmits:          a quota 429 is turned into 200 (a limiter that stops counting under load);
//   overAdmitsBy:        each key's window admits `extra(quota)` requests beyond its quota (10 %, or
//                        one), then refuses again: a hidden over-admission, caught only by a canary
//                        that sends past its quota within one window.
import { RATE_LIMIT_HEADERS } from '../../spec/contract.ts';
import type { Handle } from '../../reference/types.ts';
import { arrivalRate } from './arrival-rate.ts';

export function throttlesBelowQuota(rate: number): (handle: Handle) => Handle {
  const arrivals = arrivalRate();
  let n = 0;
  return (handle) => async (req) => {
    const busy = arrivals.arrive(Date.now()) > rate;
    const res = await handle(req);
    if (!busy || res.status !== 200 || ++n % 5 !== 0) return res;
    return {
      status: 429,
      headers: { ...res.headers, 'retry-after': '1' },
      body: '{"code":"busy","message":"try later","status":429}',
    };
  };
}

export function overAdmits(rate: number): (handle: Handle) => Handle {
  const arrivals = arrivalRate();
  return (handle) => async (req) => {
    const busy = arrivals.arrive(Date.now()) > rate;
    const res = await handle(req);
    if (!busy || res.status !== 429) return res;
    const headers = { ...res.headers };
    delete headers['retry-after'];
    return { status: 200, headers, body: '[]' };
  };
}

export function overAdmitsBy(rate: number, extra: (quota: number) => number): (handle: Handle) => Handle {
  const arrivals = arrivalRate();
  /** key + window (its X-RateLimit-Reset) → requests admitted beyond the quota */
  const granted = new Map<string, number>();
  return (handle) => async (req) => {
    const busy = arrivals.arrive(Date.now()) > rate;
    const res = await handle(req);
    if (!busy || res.status !== 429) return res;
    const window = `${req.headers.authorization}|${res.headers[RATE_LIMIT_HEADERS.reset]}`;
    const given = granted.get(window) ?? 0;
    if (given >= extra(Number(res.headers[RATE_LIMIT_HEADERS.limit]))) return res;
    if (granted.size > 10_000) granted.clear();
    granted.set(window, given + 1);
    const headers = { ...res.headers };
    delete headers['retry-after'];
    return { status: 200, headers, body: '[]' };
  };
}
