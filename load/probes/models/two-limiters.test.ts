// The two-limiter recognisers tell a model only on evidence one side cannot give, else nothing.
import { describe, expect, it } from 'vitest';
import { toldByCount, toldByResets } from './two-limiters.ts';

const at = (ms: number) => ({ sentMs: ms, receivedMs: ms + 10 });

describe('toldByCount', () => {
  // 20 per 2 s: a bucket refills one request per 100 ms.
  const count = (n: number, refusedMs: number) => ({
    limit: 20,
    windowMs: 2000,
    restMs: 4000,
    admitted: Array.from({ length: n }, (_, i) => at(i * 5)),
    refused: at(refusedMs),
  });

  it('a 429 while every bucket of the figure still held two tokens: a fixed window', () => {
    expect(toldByCount(count(10, 60), 'why')?.model).toBe('fixed');
  });

  it('the window after the 429 refusing sooner than the count: a refilling limiter', () => {
    const told = toldByCount(count(22, 120), 'why', { admitted: 5, refusedByMinute: true });
    expect(told?.model).toBe('token-bucket');
  });

  it('nothing that tells them apart: undefined', () => {
    expect(toldByCount(count(22, 120), 'why', { admitted: 22, refusedByMinute: true })).toBeUndefined();
    expect(toldByCount(count(22, 120), 'why')).toBeUndefined();
  });
});

describe('toldByResets', () => {
  it('two minute 429 Resets less than a window apart: no fixed window', () => {
    expect(toldByResets([100, 101], 3)?.model).toBe('token-bucket');
  });
  it('Resets a whole window apart, or windows as short as the headers resolve: nothing', () => {
    expect(toldByResets([100, 103], 3)).toBeUndefined();
    expect(toldByResets([100, 101], 1)).toBeUndefined();
  });
});
