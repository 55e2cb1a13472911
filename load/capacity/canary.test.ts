import { describe, expect, it } from 'vitest';
import {
  canaryBudget,
  canaryResponse,
  canaryWindows,
  judgeCanaries,
  shouldSendMore,
  type CanaryResponse,
} from './canary.ts';
import type { CanaryResult } from './result.ts';

const r = (status: number, reset = 100, retryAfterOk = true): CanaryResponse => ({ status, reset, retryAfterOk });
const canary = (windows: CanaryResult['windows'], over: Partial<CanaryResult> = {}): CanaryResult => ({
  plan: 'free',
  perMinute: 40,
  step: 3,
  sent: 50,
  windows,
  missingRetryAfter: 0,
  transportErrors: 0,
  ...over,
});

describe('canary burst', () => {
  it('sends until a 429 and a few more, bounded by twice the quota + 10', () => {
    expect(shouldSendMore(Array(39).fill(r(200)), 40)).toBe(true);
    expect(shouldSendMore([...Array(40).fill(r(200)), ...Array(4).fill(r(429))], 40)).toBe(false);
    expect(shouldSendMore(Array(canaryBudget(40)).fill(r(200)), 40)).toBe(false);
  });
  it('reads Reset as a Unix timestamp, whole or fractional (slowapi), and Retry-After on a 429', () => {
    expect(canaryResponse(200, { 'X-RateLimit-Reset': '1795501051' })).toEqual({
      status: 200,
      reset: 1795501051,
      retryAfterOk: true,
    });
    expect(canaryResponse(429, { 'x-ratelimit-reset': '1795501051.808396', 'retry-after': '3' })).toEqual({
      status: 429,
      reset: 1795501051.808396,
      retryAfterOk: true,
    });
    expect(canaryResponse(429, { 'x-ratelimit-reset': 'soon' })).toMatchObject({ reset: NaN, retryAfterOk: false });
  });
  it('counts per window as the server states it (X-RateLimit-Reset), with where its answers sit in send order', () => {
    expect(canaryWindows([r(200, 100), r(200, 102), r(429, 102), r(0, NaN), r(429, 102)])).toEqual([
      { reset: 100, admitted: 1, rejected: 0, lastAdmitted: 0 },
      { reset: 102, admitted: 1, rejected: 2, lastAdmitted: 1, firstRejected: 2 },
    ]);
  });
});

describe('judgeCanaries', () => {
  it('passes a window that admitted exactly its quota, then refused', () => {
    expect(judgeCanaries([canary([{ reset: 1, admitted: 40, rejected: 5 }])])).toEqual({
      overAdmitted: [],
      underAdmitted: [],
      missingRetryAfter: [],
      unjudged: [],
      judged: 1,
      rejected: 5,
    });
  });
  it('catches over-admission, under-admission and a 429 without Retry-After', () => {
    const f = judgeCanaries([
      canary([{ reset: 1, admitted: 45, rejected: 0 }]),
      canary([{ reset: 1, admitted: 30, rejected: 5 }], { missingRetryAfter: 5 }),
    ]);
    expect(f.overAdmitted).toHaveLength(1);
    expect(f.underAdmitted).toHaveLength(1);
    expect(f.missingRetryAfter).toHaveLength(1);
  });
  it('a burst split by a window boundary: the first part is not judged short', () => {
    expect(
      judgeCanaries([
        canary([
          { reset: 1, admitted: 12, rejected: 0 },
          { reset: 3, admitted: 40, rejected: 4 },
        ]),
      ]).underAdmitted,
    ).toEqual([]);
  });
  it("two limiters (the day's Reset on every 200, the minute's on the 429s after them): unjudged, not judged short", () => {
    // express-rate-limit and rate-limiter-flexible, one limiter per quota, as real services run them.
    const windows = canaryWindows([...Array(40).fill(r(200, 3700)), ...Array(4).fill(r(429, 104))]);
    const f = judgeCanaries([canary(windows)]);
    expect(f.underAdmitted).toEqual([]);
    expect(f.judged).toBe(0);
    expect(f.unjudged).toEqual([expect.stringContaining('two limiters, each writing its own X-RateLimit-*')]);
    expect(f.rejected).toBe(4); // Retry-After is still judged on them
  });
  it('one fixed window, then the next admitting after its 429s: still judged, and a short window still fails', () => {
    const next = canaryWindows([...Array(40).fill(r(200, 104)), ...Array(4).fill(r(429, 104)), r(200, 108)]);
    expect(judgeCanaries([canary(next)])).toMatchObject({ judged: 1, unjudged: [], underAdmitted: [] });
    const short = canaryWindows([...Array(30).fill(r(200, 104)), ...Array(4).fill(r(429, 104)), r(200, 108)]);
    expect(judgeCanaries([canary(short)]).underAdmitted).toHaveLength(1);
  });
  it('a canary that never met a 429 is unjudged, not passed', () => {
    expect(judgeCanaries([canary([{ reset: 1, admitted: 20, rejected: 0 }])]).unjudged).toHaveLength(1);
  });
});
