// A correct GCRA or token bucket that refills between two requests of one wave answers the later one with
// more Remaining; serverOrder (waves.ts) reads a tied whole-second Reset in falling Remaining, so such a pair
// comes out in the wrong order, and remainingCountdown must not read it as "from 2 to 0 across one admitted
// request". Seeds chosen where such pairs occur (virtual time).
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../core/exchange.ts';
import type { Verdict } from '../../report/check.ts';
import type { ModelVerdict } from './models/minute-count.ts';
import { BUCKET_DECLARED, runShape } from '../../testkit/load/shape-run.ts';
import { remainingCountdown } from './judge.ts';
import type { Observation } from './observe.ts';

const windows = { minuteSeconds: 2, daySeconds: 20 };
const plans = { free: { perMinute: 20, perDay: 100 }, pro: { perMinute: 40, perDay: 160 } };

describe.each([
  ['gcra', [0, 200], [43, 159]],
  ['gcra', [0, 400], [14, 50, 173]],
  ['token-bucket', [0, 200], [43, 159]],
] as const)("a correct %s, each way %j ms: a wave's refill is not a Remaining fault", (meter, latencyMs, seeds) => {
  it.for(seeds)('passes the minute probe with every MUST judged (seed %i)', async (seed) => {
    const shape = { meter, headers: 'binding' } as const;
    const r = await runShape({
      declared: BUCKET_DECLARED,
      windows,
      plans,
      shape,
      latencyMs: [...latencyMs],
      seed,
      only: ['minute'],
    });
    expect({ failed: r.failed, unjudged: r.unjudged }).toEqual({ failed: [], unjudged: [] });
  });
});

describe('remainingCountdown reads a pair of one wave and one Reset in either order, on a limiter that refills', () => {
  const scope = { ctx: { windows }, k: { plan: { name: 'pro', ...plans.pro } } };
  const model = (name: ModelVerdict['model']): ModelVerdict => ({ model: name, why: 'test' });
  const ex = {} as Exchange;
  /** An admitted answer of the pro minute quota (Limit 40), sent and answered at these local ms. */
  const answer = (remaining: number, sentLocal: number, receivedLocal: number, reset = 1795527167): Observation => ({
    ex,
    status: 200,
    admitted: true,
    quota: 'minute',
    rate: { limit: 40, remaining, reset },
    serverMs: receivedLocal,
    sentLocal,
    receivedLocal,
  });
  const outcomes = (vs: Verdict[]): string[] => vs.map((v) => v.kind);
  // The count before the wave: Limit-1 down to one above the wave's first, one request at a time (1 ms each).
  const lead = (to: number): Observation[] =>
    Array.from({ length: 40 - to }, (_, i) => answer(39 - i, 2950 + i, 2951 + i));
  const judge = (wave: Observation[], name: ModelVerdict['model'] = 'token-bucket') => {
    const admitted = [...lead(wave[0]!.rate!.remaining + 1), ...wave];
    return outcomes(remainingCountdown(scope, { admitted, over: false, endMs: 0 }, model(name)));
  };

  // The bench's pair (series minute:pro, ms from its first sample): Remaining 0 answered at 3034, Remaining 2 at
  // 3168, both Reset 1795527167, one wave (its send taken here as 2990): 2.7 emission intervals apart.
  const bench = [answer(2, 2990, 3168), answer(0, 2990, 3034)];

  it('passes the bench pair: the GCRA refilled between them, answering the later request with more', () => {
    expect(judge(bench)).toEqual(['pass']);
  });

  it('still fails that drop in an order the server shows: a fixed window, one after the other, another Reset', () => {
    expect(judge(bench, 'fixed')).toEqual(['fail']);
    expect(judge([answer(2, 2990, 3000), answer(0, 3000, 3034)])).toEqual(['fail']);
    expect(judge([answer(2, 2990, 3168, 1795527166), answer(0, 2990, 3034)])).toEqual(['fail']);
  });

  it('still fails a drop by two in a wave quicker than the refill it would need (a local server, 20 ms)', () => {
    // Read the other way round, 0 then 2 needs three emission intervals (150 ms) of refill; 20 ms gives one.
    expect(judge([answer(2, 2990, 3010), answer(0, 2990, 3005)])).toEqual(['fail']);
  });

  it('still fails Remaining falling by two per request in one slow wave: its gaps need more than its refill', () => {
    // 200 ms of a 40-per-2-s refill gives 4: one gap of 2 (3 refilled) fits, three (7) do not, even though
    // each pair alone could be read the other way round.
    const wave = [10, 8, 6, 4].map((r) => answer(r, 2990, 3190));
    expect(judge(wave.slice(0, 2))).toEqual(['pass']);
    expect(judge(wave)).toEqual(['fail']);
  });
});
