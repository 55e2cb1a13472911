// sethvargo/go-limiter writes X-RateLimit-Reset as an RFC 1123 date: no answer's headers are readable, so a burst
// timed on its dated Retry-After (whole seconds, rounded down) cannot be placed in one window, and a 429 of its
// spent day cannot be told from the minute's. Live, a correct run read "40 simultaneous requests on a fresh window:
// 28 admitted" (two windows) and "18 admitted" (its day ran out). Either side of the figure, up to twice it, is
// unjudged with the reason; more than twice the figure, which no reading admits, still fails.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../../core/exchange.ts';
import { BURST_RULES, type BurstObservation } from './burst.ts';
import { CHECKS } from '../checks.ts';
import type { Observation } from '../observe.ts';

const windows = { minuteSeconds: 2, daySeconds: 20 };
const plan = { name: 'free', perMinute: 20, perDay: 100 };

const answer = (admitted: boolean, readable: boolean): Observation => ({
  ex: { response: { status: admitted ? 200 : 429, headers: {}, body: '' } } as unknown as Exchange,
  status: admitted ? 200 : 429,
  admitted,
  quota: readable ? 'minute' : 'unknown',
  ...(readable ? { rate: { limit: 20, remaining: 0, reset: 1795903338 } } : {}),
  serverMs: 0,
  sentLocal: 0,
  receivedLocal: 10,
});

const burstOf = (admitted: number, readable = false): Observation[] =>
  Array.from({ length: 40 }, (_, i) => answer(i < admitted, readable));

const exact = (all: Observation[]) => {
  const rule = BURST_RULES.find((r) => r.check === CHECKS.burstExact)!;
  const o: BurstObservation = {
    scope: { ctx: { windows }, k: { plan } },
    model: { model: 'unknown', why: 'test' },
    burst: { all, endMs: 0 },
  } as BurstObservation;
  return [rule.applies?.(o) ?? rule.judge(o)].flat();
};

describe('quota.burst.exact when no answer of the burst has readable rate-limit headers', () => {
  it.each([18, 28, 40])('%i of 40 admitted: unjudged, nothing places them in one window', (n) => {
    const [v] = exact(burstOf(n));
    expect(v).toMatchObject({
      kind: 'unjudged',
      reason: expect.stringMatching(/no answer of the burst carried readable/),
    });
  });

  it('the figure itself passes', () => {
    expect(exact(burstOf(20)).map((v) => v.kind)).toEqual(['pass']);
  });

  it('answers the headers place are judged as before: 28 of a window told by its Reset fail', () => {
    expect(exact(burstOf(28, true)).map((v) => v.kind)).toEqual(['fail']);
  });
});
