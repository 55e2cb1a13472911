// The limiter's model from one count's evidence: each model's own evidence, and the ambiguous cases
// never called "fixed" (fixed-window rules would then fail a correct sliding limiter).
import { describe, expect, it } from 'vitest';
import { afterFits, afterNeeded, inferModel, laterNeeded, LATER_MS, type ModelEvidence } from './minute-count.ts';
import { allowance, allowanceFor } from './allowance.ts';

const R = 1_900_000_000;
/** n admitted requests `step` s apart (10 ms by default) starting at `t0` (s), each reporting reset(t). */
const count = (n: number, t0: number, reset: (t: number) => number, step = 0.01): ModelEvidence['admitted'] =>
  Array.from({ length: n }, (_, i) => ({
    sentMs: (t0 + i * step) * 1000,
    receivedMs: (t0 + i * step) * 1000 + 2,
    reset: reset(t0 + i * step),
  }));

describe('inferModel', () => {
  it('fixed: one Reset, the 429 on it, the next window one window later', () => {
    const e = {
      windowSeconds: 2,
      admitted: count(4, R - 1.5, () => R),
      refused: { reset: R },
      recovery: { reset: R + 2 },
    };
    expect(inferModel(e).model).toBe('fixed');
  });

  it('sliding log: Reset = now + window moves with time within the count', () => {
    const e = {
      windowSeconds: 2,
      admitted: count(4, R - 0.5, (t) => Math.ceil(t + 2), 0.2),
      refused: { reset: R + 2 },
      recovery: { reset: R + 6 },
    };
    expect(e.admitted.map((a) => a.reset - R)).toEqual([2, 2, 2, 3]);
    expect(inferModel(e).model).toBe('sliding-log');
  });

  it('sliding log within one second: the recovery gives it away (its Reset is its own time + a window)', () => {
    const e = {
      windowSeconds: 2,
      admitted: count(4, R - 0.5, (t) => Math.ceil(t + 2)),
      refused: { reset: R + 2 },
      recovery: { reset: R + 5 },
    };
    expect(inferModel(e)).toMatchObject({ model: 'sliding-log' });
  });

  it('sliding window counter: the 429 points past the window the count reported', () => {
    const e = {
      windowSeconds: 2,
      admitted: count(4, R - 1, () => R),
      refused: { reset: R + 1 },
      recovery: { reset: R + 2 },
    };
    expect(inferModel(e).model).toBe('sliding-counter');
  });

  it('token bucket: Reset rises faster than time (each request pushes it)', () => {
    // capacity 4, 2 tokens/s: after k requests the bucket is full again k/2 s later.
    const e = {
      windowSeconds: 2,
      admitted: count(4, R + 0.3, (t) => Math.ceil(t + 0.5 * (1 + Math.round((t - R - 0.3) / 0.01)))),
      refused: { reset: R + 1 },
    };
    expect(inferModel(e).model).toBe('token-bucket');
  });

  // express-rate-limit's memory store, rate-limiter-flexible: the recovery opened the next window, more
  // than a window after the count's Reset, as a sliding log's would. One more request tells them apart.
  it('windows opened by a first request: told from a sliding log by one request LATER_MS after the recovery', () => {
    const base = {
      windowSeconds: 3,
      admitted: count(4, R - 2.5, () => R),
      refused: { reset: R },
      recovery: { reset: R + 4 },
    };
    expect(laterNeeded(base)).toBe(true);
    expect(inferModel(base).model).toBe('sliding-log');
    expect(inferModel({ ...base, later: { reset: R + 4, afterMs: LATER_MS } })).toMatchObject({
      model: 'fixed',
      start: 'first-request',
    });
    expect(inferModel({ ...base, later: { reset: R + 5, afterMs: LATER_MS } }).model).toBe('sliding-log');
    expect(inferModel({ ...base, later: { reset: R + 4, afterMs: 300 } }).model).toBe('sliding-log'); // too soon to tell
    // Exactly one window later: an aligned window, or a log whose Reset is rounded down onto the grid. The
    // later request (and the one after the recovery's window) is sent to tell them apart.
    expect(laterNeeded({ ...base, recovery: { reset: R + 3 } })).toBe(true);
    expect(inferModel({ ...base, recovery: { reset: R + 3 } })).toMatchObject({ model: 'fixed', start: 'aligned' });
    expect(
      inferModel({ ...base, recovery: { reset: R + 3 }, later: { reset: R + 3, afterMs: LATER_MS } }),
    ).toMatchObject({ model: 'fixed', start: 'aligned' });
    expect(inferModel({ ...base, recovery: { reset: R + 3 }, later: { reset: R + 4, afterMs: LATER_MS } }).model).toBe(
      'sliding-log',
    );
    const stillCounting = {
      ...base,
      recovery: { reset: R + 3 },
      later: { reset: R + 3, afterMs: LATER_MS },
      after: { remaining: 8, limit: 10, fits: true },
    };
    expect(inferModel(stillCounting).model).toBe('sliding-log');
  });

  // The limits library's moving window (slowapi strategy="moving-window") reports its OLDEST request's expiry:
  // the later request keeps the recovery's Reset (the recovery is the oldest) as a first-request window
  // does. Told fixed, the fixed-window rules would fail a correct one (its burst and day count short).
  it("a moving window: told from a first-request window by one request once the recovery's window ended", () => {
    const kept = {
      windowSeconds: 3,
      admitted: count(4, R - 2.5, () => R),
      refused: { reset: R },
      recovery: { reset: R + 4 },
    };
    const e = { ...kept, later: { reset: R + 4, afterMs: LATER_MS } };
    expect(afterNeeded(e)).toBe(true);
    expect(afterNeeded({ ...e, later: { reset: R + 5, afterMs: LATER_MS } })).toBe(false); // a log moving its Reset: told already
    expect(afterNeeded(kept)).toBe(false);
    // The log still counts the later request: Remaining Limit - 2; a fixed window opened afresh: Limit - 1.
    expect(inferModel({ ...e, after: { remaining: 2, limit: 4, fits: true } })).toMatchObject({
      model: 'sliding-log',
      why: expect.stringMatching(/oldest request's expiry/),
    });
    expect(inferModel({ ...e, after: { remaining: 0, limit: 4, fits: true } }).model).toBe('sliding-log');
    expect(inferModel({ ...e, after: { remaining: 3, limit: 4, fits: true } })).toMatchObject({
      model: 'fixed',
      start: 'first-request',
      why: expect.stringMatching(/found it fresh/),
    });
    // Timing that cannot tell (sent too soon, or answered after the later request's window): as before.
    expect(inferModel({ ...e, after: { remaining: 2, limit: 4, fits: false } })).toMatchObject({
      model: 'fixed',
      start: 'first-request',
    });
  });

  it("the after request tells only when it reached the server between the two windows' ends", () => {
    const t = { recoveryReceivedMs: 10_000, laterSentMs: 11_100, afterSentMs: 13_040, afterReceivedMs: 13_200 };
    expect(afterFits(t, 3)).toBe(true);
    expect(afterFits({ ...t, afterSentMs: 12_990 }, 3)).toBe(false); // the recovery's window may not have ended
    expect(afterFits({ ...t, afterReceivedMs: 14_100 }, 3)).toBe(false); // the later request's may have
  });

  // A count spread wider than the wait's margin (a far target): after the count's Reset its first requests
  // aged out of the log, the rest still count. A bucket is full again by then (the wait is to its Reset).
  it('a moving window whose count outlasts the recovery: the recovery finds most of it still counted', () => {
    const e = {
      windowSeconds: 3,
      admitted: count(4, R - 2.5, () => R),
      refused: { reset: R },
      recovery: { reset: R + 1, remaining: 1, limit: 4 },
    };
    expect(inferModel(e)).toMatchObject({
      model: 'sliding-log',
      why: expect.stringMatching(/later ones still counted/),
    });
    expect(inferModel({ ...e, recovery: { reset: R + 1, remaining: 3, limit: 4 } }).model).toBe('token-bucket');
    expect(inferModel({ ...e, recovery: { reset: R + 1 } }).model).toBe('token-bucket');
  });

  // 1 s windows: a whole-second Date lets the wait to the count's Reset end a whole window late, so a fixed
  // aligned window's recovery may report R + 2. Every whole second is on a 1 s grid: a log's Reset too.
  it('1 s windows, the recovery on the grid two windows on: unknown with its fix, never a sliding log', () => {
    const e = {
      windowSeconds: 1,
      admitted: count(4, R - 0.5, () => R),
      refused: { reset: R },
      recovery: { reset: R + 2 },
    };
    expect(inferModel(e)).toMatchObject({ model: 'unknown', fix: expect.stringMatching(/windows of at least 2 s/) });
    expect(inferModel({ ...e, recovery: { reset: R + 2, dateS: R + 1 } }).model).toBe('unknown'); // within its window
    // Its own Date two seconds before its Reset: no 1 s window holds it, a log's Reset (rounded up) does.
    expect(inferModel({ ...e, recovery: { reset: R + 2, dateS: R } }).model).toBe('sliding-log');
    expect(inferModel({ ...e, recovery: { reset: R + 1 } })).toMatchObject({ model: 'fixed', start: 'aligned' });
    // Longer windows tell them apart: off the grid, a log (as above at 2 and 3 s).
    expect(inferModel({ ...e, windowSeconds: 2, recovery: { reset: R + 5 } }).model).toBe('sliding-log');
    // A log whose Reset moves within the count is still told at 1 s.
    const moving = count(4, R - 0.5, (t) => Math.ceil(t + 1), 0.2);
    expect(
      inferModel({ windowSeconds: 1, admitted: moving, refused: { reset: R + 1 }, recovery: { reset: R + 4 } }).model,
    ).toBe('sliding-log');
  });

  it('no 429 or no minute headers: unknown, never fixed', () => {
    expect(inferModel({ windowSeconds: 2, admitted: count(4, R - 1, () => R) }).model).toBe('unknown');
    expect(inferModel({ windowSeconds: 2, admitted: [], refused: { reset: R } }).model).toBe('unknown');
    expect(inferModel({ windowSeconds: 2, admitted: count(4, R - 1, () => R), refused: { reset: R } }).model).toBe(
      'unknown',
    );
  });
});

describe('allowance', () => {
  it('none for fixed windows; the rate over the span for the others, floored', () => {
    expect(allowance('fixed', 60, 60_000, 30_000)).toBe(0);
    expect(allowance('token-bucket', 60, 60_000, 999)).toBe(0);
    expect(allowance('token-bucket', 60, 60_000, 2500)).toBe(2);
    expect(allowance('sliding-log', 4, 2000, 100)).toBe(0);
  });
});

describe('allowanceFor', () => {
  // A moving window's overAdmit twin (one more per window, headers of the plan) passed the minute count at
  // 2 s windows when the count took 100 ms (an allowance of 1 for any sliding log): the tell shows this log
  // does not refill, so within a window it gets none.
  it("none within a window for a log shown to count each request a whole window; the model's otherwise, a bucket declared", () => {
    const log = { model: 'sliding-log' as const, why: '' };
    expect(allowanceFor(log, 20, 2000, 150, 'token-bucket')).toBe(1);
    expect(allowanceFor({ ...log, wholeWindow: true }, 20, 2000, 150, 'token-bucket')).toBe(0);
    expect(allowanceFor({ ...log, wholeWindow: true }, 20, 2000, 2100, 'token-bucket')).toBe(21); // a count longer than a window
    expect(allowanceFor({ model: 'token-bucket', why: '' }, 20, 2000, 150, 'token-bucket')).toBe(1);
    expect(allowanceFor({ model: 'fixed', why: '' }, 20, 2000, 1500, 'token-bucket')).toBe(0);
  });

  it("under the window reading, no refill within one window's length; past it, and for a counter's own windows, the model's", () => {
    const bucket = { model: 'token-bucket' as const, why: '' };
    expect(allowanceFor(bucket, 20, 2000, 1999, undefined)).toBe(0);
    expect(allowanceFor(bucket, 20, 2000, 2100, undefined)).toBe(21);
    expect(allowanceFor({ model: 'sliding-log', why: '' }, 20, 2000, 150, undefined)).toBe(0);
    expect(allowanceFor({ model: 'sliding-counter', why: '' }, 20, 2000, 150, undefined)).toBe(1);
  });

  it('both moving-window tells mark the log', () => {
    const kept = {
      windowSeconds: 3,
      admitted: count(4, R - 2.5, () => R),
      refused: { reset: R },
      recovery: { reset: R + 4 },
    };
    const after = {
      ...kept,
      later: { reset: R + 4, afterMs: LATER_MS },
      after: { remaining: 2, limit: 4, fits: true },
    };
    expect(inferModel(after).wholeWindow).toBe(true);
    expect(inferModel({ ...kept, recovery: { reset: R + 1, remaining: 1, limit: 4 } }).wholeWindow).toBe(true);
    expect(inferModel({ ...kept, later: { reset: R + 5, afterMs: LATER_MS } }).wholeWindow).toBeUndefined(); // Reset = newest + window
  });
});

describe('token bucket told from a sliding log by the recovery', () => {
  it("once full again, one request moves a bucket's Reset a token ahead; an emptied log's a whole window past its last Reset", () => {
    const admitted = count(4, R + 0.2, () => R + 3); // one Reset: the count alone cannot tell
    expect(
      inferModel({ windowSeconds: 2, admitted, refused: { reset: R + 3 }, recovery: { reset: R + 4 } }).model,
    ).toBe('token-bucket');
    expect(
      inferModel({ windowSeconds: 2, admitted, refused: { reset: R + 3 }, recovery: { reset: R + 6 } }).model,
    ).toBe('sliding-log');
  });

  it('a count straddling a second in a few ms: told a bucket (the same rules judge both)', () => {
    const admitted = count(4, R + 0.995, (t) => Math.ceil(t + 2));
    expect(
      inferModel({ windowSeconds: 2, admitted, refused: { reset: R + 3 }, recovery: { reset: R + 7 } }).model,
    ).toBe('token-bucket');
  });
});
