import { describe, expect, it } from 'vitest';
import { isDeclarable } from '../../spec/plans.ts';
import { allowanceFor } from './models/allowance.ts';
import {
  bucketWindowMost,
  namesOneEnd,
  overWindowText,
  ownEndCrossed,
  readingFor,
  readingOf,
  refillCounts,
} from './reading.ts';

describe('the reading', () => {
  it('is the window reading unless a bucket is declared, and says which', () => {
    expect(readingOf(undefined)).toMatchObject({ model: 'window', declared: false });
    expect(readingOf('gcra')).toMatchObject({ model: 'gcra', declared: true });
    expect(readingFor(undefined, 60)).toBe("judged under the window reading (at most 60 in any window's length)");
    expect(readingFor('token-bucket', 60)).toBe('judged as a token bucket (capacity 60, 60 per window)');
  });

  it('declares only the refilling models', () => {
    expect(isDeclarable('token-bucket')).toBe(true);
    expect(isDeclarable('gcra')).toBe(true);
    expect(isDeclarable('fixed')).toBe(false);
  });

  it('counts a refill within a window only when declared', () => {
    expect(refillCounts(undefined, 'token-bucket', 1000, 999)).toBe(false);
    expect(refillCounts(undefined, 'token-bucket', 1000, 1000)).toBe(true);
    expect(refillCounts('token-bucket', 'token-bucket', 1000, 10)).toBe(true);
  });

  // The limits counter's overAdmit twin (21 per 2 s window) PASSed with 21 in 133 ms: the counter's allowance across
  // its own window end let one more in, where every answer named one end (testkit/journals recording).
  it("gives a counter no refill within a window's length where every answer named one end of its window", () => {
    const minute = (reset: number) => ({ quota: 'minute', rate: { reset } });
    const oneEnd = [1795915535.0000103, 1795915535.0000167, 1795915535.000011].map(minute);
    const crossed = [1795915535.00001, 1795915535.1, 1795915535.2].map(minute);
    expect(namesOneEnd(oneEnd, 20, 2000)).toBe(true);
    expect(namesOneEnd(crossed, 20, 2000)).toBe(false);
    expect(namesOneEnd([...oneEnd, { quota: 'day', rate: { reset: 1795915535 } }], 20, 2000)).toBe(false);
    const counter = { model: 'sliding-counter' as const, why: '' };
    expect(allowanceFor(counter, 20, 2000, 133, undefined, false)).toBe(1);
    expect(allowanceFor(counter, 20, 2000, 133, undefined, true)).toBe(0);
    // Past a window's length, or under a declared bucket, the refill counts as before.
    expect(allowanceFor(counter, 20, 2000, 2100, undefined, true)).toBe(21);
    expect(allowanceFor(counter, 20, 2000, 133, 'token-bucket', true)).toBe(1);
  });

  it('states what the evidence proves in the figures of a bucket', () => {
    expect(bucketWindowMost(60)).toBe(119);
    expect(overWindowText(103, 36_600, 60, 45, 'day')).toBe(
      "103 admitted within 36.6 s of one 45 s day: a bucket of 60 refilled at 60 per day admits up to 119 per day; judged under the window reading (at most 60 in any window's length)",
    );
  });
});

describe("a count crossing its limiter's own window end (ownEndCrossed)", () => {
  const at = (resets: number[]) => resets.map((reset) => ({ reset }));
  const E = 1795906873;
  // Noise of the limits library's Reset: the server's clock read twice (microseconds, milliseconds when busy).
  const named = (n: number) => Array.from({ length: n }, (_, i) => E + (i % 3) * 0.000004 + (i === 5 ? 0.008 : 0));

  it('tells the limits counter: 40 naming E, then the weighted last window dropping every 2 s / 40', () => {
    const crossed = ownEndCrossed(at([...named(40), E + 0.0500114, E + 0.1000116, E + 0.1500096]), 40, 2000, 302);
    expect(crossed).toEqual({ end: E, last: 40, past: 3, most: 40 + 6 + 1 });
  });

  it("tells it when only part of the count came before the end: its steps name the last window's count", () => {
    const past = [...Array<number>(24).fill(E + 0.117657), E + 0.2353053];
    expect(ownEndCrossed(at([...named(17), ...past]), 40, 2000, 240)).toMatchObject({ last: 17, past: 25, most: 43 });
  });

  it("lets the floor's one more in at once (19.99 reads 19)", () => {
    expect(ownEndCrossed(at([...named(20), E + 0.1000004]), 20, 2000, 5)?.most).toBe(21);
  });

  it('tells it a second after E when the last window held two (fractional Resets: no rounding made them a second apart)', () => {
    const past = Array<number>(20).fill(E + 1.0000001);
    expect(ownEndCrossed(at([E + 0.000012, ...past]), 20, 2000, 275)).toMatchObject({ last: 2, past: 20, most: 21 });
  });

  it('tells no bucket, log or fixed window', () => {
    // A bucket's Reset (when full again) rises by a refill interval per request.
    expect(ownEndCrossed(at(Array.from({ length: 21 }, (_, i) => E + i * 0.1)), 20, 2000, 50)).toBeUndefined();
    // A log's (now + a window) moves with time, off any grid of steps.
    expect(ownEndCrossed(at([...named(20), E + 0.0137, E + 0.0291]), 20, 2000, 50)).toBeUndefined();
    expect(ownEndCrossed(at([...named(20), E + 0.0637, E + 0.0891]), 20, 2000, 100)).toBeUndefined();
    // Whole-second Resets: a second later is a fixed window's rounding or a log's, never this counter's step.
    expect(ownEndCrossed(at([...Array<number>(20).fill(E), E + 1]), 20, 2000, 50)).toBeUndefined();
    expect(
      ownEndCrossed(at([...Array<number>(12).fill(E), ...Array<number>(9).fill(E + 1)]), 20, 2000, 50),
    ).toBeUndefined();
    // A fixed window's next end is a whole window later.
    expect(ownEndCrossed(at([...named(20), E + 2]), 20, 2000, 50)).toBeUndefined();
  });

  it('tells nothing when one end is named by more than the figure: one window over-admitted', () => {
    expect(ownEndCrossed(at([...named(21), E + 0.1]), 20, 2000, 50)).toBeUndefined();
  });
});
