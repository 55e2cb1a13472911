import { describe, expect, it } from 'vitest';
import { answerOf, remainingCeilingBreach, type Answer } from './remaining-ceiling.ts';

// Compressed windows as in the limiter proofs: a 20 s day of 100 (a token every 200 ms), a 2 s minute of 20.
const plan = { perMinute: 20, perDay: 100 };
const windows = { minuteSeconds: 2, daySeconds: 20 };
const RESET = 1_795_500_020;

/** Admitted answers of one fixed day window: the c-th counted reports 100 − c (+ offset), 150 ms apart from `fromMs`. */
function dayWindow(counts: number[], offset = 0, fromMs = 0): Answer[] {
  return counts.map((c, i) => ({
    t: fromMs + i * 150,
    status: 200,
    limit: 100,
    remaining: 100 - c + offset,
    reset: RESET,
  }));
}

const before = (counts: number[], offset = 0): Answer[] => dayWindow(counts, offset).map(({ t: _t, ...a }) => a);
const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('remainingCeilingBreach (§8.2: Remaining never above Limit minus our own requests in its window)', () => {
  it('catches Remaining one too high throughout, when identifying the target opened the window (erl/rlf wrongRemaining)', () => {
    // Two requests identifying the target, then the minute probe: every answer reports the day, +1.
    const answers = [...before([1, 2], 1), ...dayWindow(range(3, 24), 1)];
    const breach = remainingCeilingBreach(answers, plan, windows);
    expect(breach).toMatchObject({ quota: 'day', limit: 100, reset: RESET, counted: 1, remaining: 100 });
  });

  it('catches it from the probe alone once the answers before it are known to count (the j-th most is at most Limit − j)', () => {
    // Without the identification's answers the window's first two requests are unseen; with them it fails.
    const probe = dayWindow(range(3, 24), 1);
    expect(remainingCeilingBreach(probe, plan, windows)).toBeUndefined();
    expect(remainingCeilingBreach([...before([1, 2]), ...probe], plan, windows)).toMatchObject({
      counted: 3,
      remaining: 98,
    });
  });

  it('passes a correct fixed window, in any order the answers came back, and with other clients using the key', () => {
    const correct = [...before([1, 2]), ...dayWindow(range(3, 24))];
    expect(remainingCeilingBreach(correct, plan, windows)).toBeUndefined();
    expect(remainingCeilingBreach([...correct].reverse(), plan, windows)).toBeUndefined();
    const othersToo = [
      ...before([1, 4]),
      ...dayWindow([6, 7, 9, 10, 12, 13, 15, 16, 18, 19, 21, 22, 24, 25, 27, 28, 30, 31, 33, 34]),
    ];
    expect(remainingCeilingBreach(othersToo, plan, windows)).toBeUndefined();
  });

  it('never judges a token bucket: its Reset (full again) rises 200 ms a request, so few answers share one', () => {
    // A day bucket of 100 refilling 5/s, asked every 150 ms: Remaining 99 for each, Reset ceil(now + 0.2 s).
    const answers: Answer[] = range(0, 40).map((i) => ({
      t: i * 150,
      status: 200,
      limit: 100,
      remaining: 99,
      reset: Math.ceil((i * 150 + 200) / 1000),
    }));
    expect(remainingCeilingBreach(answers, plan, windows)).toBeUndefined();
  });

  it("never judges a bucket whose Reset is its next token's time, while that Reset can stay within a second", () => {
    // Six answers within 900 ms share a whole-second Reset; the bucket refilled in between (Remaining stays 99).
    const answers: Answer[] = range(0, 5).map((i) => ({
      t: i * 180,
      status: 200,
      limit: 100,
      remaining: 99,
      reset: RESET,
    }));
    expect(remainingCeilingBreach(answers, plan, windows)).toBeUndefined();
  });

  it('judges only admitted answers of a known quota, and splits windows by Reset', () => {
    const refused = { t: 0, status: 429, limit: 100, remaining: 100, reset: RESET };
    const unknownLimit = { t: 0, status: 200, limit: 7, remaining: 7, reset: RESET };
    const nextWindow = dayWindow(range(1, 24), 0, 20_000).map((a) => ({ ...a, reset: RESET + 20 }));
    expect(
      remainingCeilingBreach([refused, unknownLimit, ...dayWindow(range(3, 24)), ...nextWindow], plan, windows),
    ).toBeUndefined();
  });

  it('leaves an over-admitted window to the exactness checks: Remaining 0 past Limit admissions is no breach', () => {
    const over = dayWindow(range(1, 101)).map((a) => ({ ...a, remaining: Math.max(0, a.remaining!) }));
    expect(remainingCeilingBreach(over, plan, windows)).toBeUndefined();
  });

  it('reads the answers sent before the probes from their headers', () => {
    expect(
      answerOf(200, { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '98', 'x-ratelimit-reset': String(RESET) }),
    ).toEqual({ status: 200, limit: 100, remaining: 98, reset: RESET });
    expect(answerOf(404, {})).toEqual({ status: 404 });
  });

  it("reads a log that lets requests age out within its Reset's second as one window only before that instant", () => {
    // A sliding-log day of 100, its Reset the oldest request's expiry rounded down: 99 counted down to Remaining 1
    // before the instant RESET names, then the oldest aged out within the second past it and one more reports 1.
    const day = (remaining: number, t: number): Answer => ({ t, status: 200, limit: 100, remaining, reset: RESET });
    const count = range(1, 99).map((c) => day(100 - c, RESET * 1000 - 15_000 + c * 100));
    const aged = [...count, day(1, RESET * 1000 + 900)];
    expect(remainingCeilingBreach(aged, plan, windows)).toMatchObject({ counted: 100, remaining: 1 });
    expect(remainingCeilingBreach(aged, plan, windows, true)).toBeUndefined();
    // Before that instant a log is still held to its count.
    expect(remainingCeilingBreach([...count, day(99, RESET * 1000 - 5000)], plan, windows, true)).toMatchObject({
      counted: 2,
      remaining: 99,
    });
  });
});
