import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../load/journal/format.ts';
import { asksMs, earlySends } from './early-sends.ts';

const DATE = 'Sun, 29 Nov 2026 12:00:00 GMT';
let seq = 0;
const entry = (key: string, sentAt: number, answeredAt: number, status = 200, headers = {}): JournalEntry => ({
  seq: ++seq,
  key,
  method: 'GET',
  path: '/pets',
  sentAt,
  answeredAt,
  arrived: seq,
  status,
  headers: { date: DATE, ...headers },
});

describe('early sends in a journal', () => {
  it('reads the wait of every form a person reads, against the answer’s Date', () => {
    expect(asksMs({ 'retry-after': '3' })).toBe(3000);
    expect(asksMs({ 'retry-after': '1.5' })).toBe(1500);
    expect(asksMs({ 'retry-after': 'Sun, 29 Nov 2026 12:00:02 GMT', date: DATE })).toBe(2000);
    expect(asksMs({ 'retry-after': 'Sun, 29 Nov 2026 12:00:09 UTC', date: DATE })).toBe(9000);
    expect(asksMs({ 'retry-after': 'soon', date: DATE })).toBe(1000);
    expect(asksMs({})).toBe(1000);
  });

  it('names a send before an earlier-answered 429 allowed, per key, and nothing else', () => {
    const ra = { 'retry-after': 'Sun, 29 Nov 2026 12:00:02 UTC' };
    const log = [
      entry('a', 0, 10, 429, ra),
      entry('b', 20, 30), // another key: not held
      entry('a', 5, 15), // in flight when the 429 came: not held
      entry('a', 10, 12), // the same millisecond as the 429's answer: counted as before it
      entry('a', 1500, 1510), // 510 ms early
      entry('a', 2010, 2020),
    ];
    expect(earlySends(log)).toEqual([{ seq: log[4]!.seq, key: 'a', byMs: 510, after: log[0]!.seq }]);
  });
});
