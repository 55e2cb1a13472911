// A window that ends while its answer is on the way: the reference behind nginx (its own Date) and a
// proxy answered a certify request in about five seconds on a loaded machine, and the 4 s minute's Reset
// (written when the request arrived) read four seconds before nginx's Date. The Reset was true when written.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../core/exchange.ts';
import { resetEndMs, type Observation } from './observe.ts';

const scope = {
  ctx: { windows: { minuteSeconds: 4, daySeconds: 40 } },
  k: { plan: { name: 'free', perMinute: 20, perDay: 100 } },
};
const dateS = 1_795_905_344;

const answer = (resetS: number, tookMs: number, heldMs?: number): Observation => ({
  ex: (heldMs === undefined ? {} : { heldMs }) as Exchange,
  status: 200,
  admitted: true,
  quota: 'minute',
  rate: { limit: 20, remaining: 3, reset: resetS },
  serverMs: dateS * 1000,
  sentLocal: 50_000 - tookMs,
  receivedLocal: 50_000,
});

describe('resetEndMs: the past is measured from when the request left', () => {
  it('accepts a Reset that ended while a slow answer was in transit', () => {
    expect(resetEndMs(scope, answer(dateS - 4, 5_000))).toBe((dateS - 4) * 1000);
  });

  it('still refuses that Reset on a quick answer: the window had ended before the request was sent', () => {
    expect(resetEndMs(scope, answer(dateS - 4, 20))).toBeUndefined();
  });

  it('measures from when the 429 hold let the request go: a wait in the hold is not time in transit', () => {
    expect(resetEndMs(scope, answer(dateS - 4, 5_000, 4_980))).toBeUndefined();
    expect(resetEndMs(scope, answer(dateS - 4, 10_000, 5_000))).toBe((dateS - 4) * 1000);
  });

  it('still refuses a Reset further in the past than the exchange lasted', () => {
    expect(resetEndMs(scope, answer(dateS - 10, 5_000))).toBeUndefined();
  });

  it('does not widen how far ahead a Reset may be', () => {
    expect(resetEndMs(scope, answer(dateS + 8, 5_000))).toBeUndefined();
    expect(resetEndMs(scope, answer(dateS + 4, 20))).toBe((dateS + 4) * 1000);
  });
});
