import { describe, expect, it } from 'vitest';
import type { Sample } from '../../../report/model.ts';
import { declaredWindowsHold, namedEnds } from './declared-windows.ts';
import type { Observation } from '../observation.ts';

const DAY = { kind: 'day' as const, figure: 10, windowMs: 20_000, before: 0 };
/** An admitted answer reporting the day quota with this Reset (Unix s). */
const day = (reset: number): Observation =>
  ({ admitted: true, status: 200, quota: 'day', rate: { limit: 10, remaining: 0, reset } }) as Observation;
/** Its sample, answered 5 s before the window's end (server ms). */
const sample = (reset: number, limit = 10): Sample => ({ t: (reset - 5) * 1000, status: 200, limit, reset });

describe('namedEnds', () => {
  it('groups Resets within a second of rounding, and keeps ends a window apart apart', () => {
    expect(namedEnds([120, 100, 101, 121])).toEqual([
      [100, 101],
      [120, 121],
    ]);
  });

  it('never chains a group past a second from its first Reset (a log moving by half a second)', () => {
    expect(namedEnds([100, 100.5, 101, 101.5])).toEqual([[100, 100.5, 101], [101.5]]);
  });
});

describe('declaredWindowsHold: the fixed windows the answers own Resets declare', () => {
  const crossing = [...Array.from({ length: 6 }, () => day(100)), ...Array.from({ length: 7 }, () => day(120))];
  const samples = crossing.map((o) => sample(o.rate!.reset));

  it('13 within a day across two declared ends, at most 10 in each: allowed', () => {
    expect(declaredWindowsHold(crossing, samples, DAY)).toBe(true);
  });

  it('one declared window holding 11 of the key’s answers (other probes’ included): not allowed', () => {
    const earlier = Array.from({ length: 5 }, () => sample(100));
    expect(declaredWindowsHold(crossing, [...samples, ...earlier], DAY)).toBe(false);
  });

  it('the requests before the probes count in the first declared window', () => {
    expect(declaredWindowsHold(crossing, samples, { ...DAY, before: 4 })).toBe(true);
    expect(declaredWindowsHold(crossing, samples, { ...DAY, before: 5 })).toBe(false);
  });

  it('an admitted answer within those windows reporting the minute quota: its window unknown, not allowed', () => {
    expect(declaredWindowsHold(crossing, [...samples, sample(110, 3)], DAY)).toBe(false);
  });

  it('Resets that move with each request (a log) name no fixed windows: not allowed', () => {
    const moving = Array.from({ length: 13 }, (_, i) => day(100 + 2 * i));
    expect(
      declaredWindowsHold(
        moving,
        moving.map((o) => sample(o.rate!.reset)),
        DAY,
      ),
    ).toBe(false);
  });

  it('one end named: not allowed (the window reading judges it)', () => {
    const one = Array.from({ length: 11 }, () => day(100));
    expect(
      declaredWindowsHold(
        one,
        one.map((o) => sample(100)),
        DAY,
      ),
    ).toBe(false);
  });

  it('an answer reporting another quota: not allowed', () => {
    const minute = { ...day(120), quota: 'minute' } as Observation;
    expect(declaredWindowsHold([...crossing, minute], samples, DAY)).toBe(false);
  });
});
