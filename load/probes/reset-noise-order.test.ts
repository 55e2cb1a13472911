// The limits library's sliding-window counter (slowapi strategy="sliding-window-counter") writes one
// window end with float noise in its last digits: one wave of the pro minute count answered Reset
// 1795902853.0000117 (Remaining 39), .0000126 (38), .000011 (37), .0000114 (36) and .0000105 (35). Read
// by that noise, the wave came out 35, 37, 36, 39, 38 and remainingCountdown failed the correct server
// ("Remaining went from 35 to 30 across one admitted request"). Those Resets are one: the wave is read
// by Remaining, as a fixed window's tied Reset is.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../core/exchange.ts';
import { FAKE_START_MS } from '../../testkit/load/in-process.ts';
import { runShape } from '../../testkit/load/shape-run.ts';
import type { Observation } from './observe.ts';
import { resetNoiseMs } from './reading.ts';
import { serverOrder } from './waves.ts';

const answer = (remaining: number, reset: number, sentLocal: number): Observation => ({
  ex: {} as Exchange,
  status: 200,
  admitted: true,
  quota: 'minute',
  rate: { limit: 40, remaining, reset },
  serverMs: sentLocal + 5,
  sentLocal,
  receivedLocal: sentLocal + 10,
});

describe('serverOrder', () => {
  it('reads Resets that differ past the millisecond as one, in falling Remaining', () => {
    const wave = [
      answer(35, 1795902853.0000105, 0),
      answer(37, 1795902853.000011, 0),
      answer(36, 1795902853.0000114, 1),
      answer(39, 1795902853.0000117, 1),
      answer(38, 1795902853.0000126, 2),
    ];
    expect(serverOrder(wave).map((o) => o.rate!.remaining)).toEqual([39, 38, 37, 36, 35]);
  });

  it('reads one end read milliseconds apart off a busy server as one, within half a refill interval', () => {
    // Live, one wave of the pro count (40 per 2 s): Remaining 24 came back with Reset .0079842, the rest .00001.
    const wave = [
      answer(25, 1795906749.0000103, 0),
      answer(26, 1795906749.0000105, 0),
      answer(24, 1795906749.0079842, 1),
      answer(23, 1795906749.0000117, 1),
    ];
    expect(serverOrder(wave, resetNoiseMs(40, 2000)).map((o) => o.rate!.remaining)).toEqual([26, 25, 24, 23]);
    expect(serverOrder(wave).map((o) => o.rate!.remaining)).toEqual([26, 25, 23, 24]);
  });

  it("still puts a later Reset after an earlier one (a bucket's grows by its refill interval per request)", () => {
    const wave = [answer(3, 1795902853.05, 0), answer(4, 1795902853, 0)];
    expect(serverOrder(wave).map((o) => o.rate!.remaining)).toEqual([4, 3]);
    expect(serverOrder(wave, resetNoiseMs(40, 2000)).map((o) => o.rate!.remaining)).toEqual([4, 3]);
  });
});

describe('a sliding-window counter whose fractional Reset carries float noise (virtual time)', () => {
  const OWN_START = FAKE_START_MS - 1_300;
  const shape = {
    meter: 'sliding-counter',
    headers: 'binding',
    originMs: OWN_START,
    fractionalReset: true,
    resetNoiseUs: (n: number) => 10 + ((n * 7) % 13),
  } as const;
  it.for([1, 2, 3])('is never failed on its Remaining, counted in waves (seed %i)', async (seed) => {
    const r = await runShape({
      windows: { minuteSeconds: 3, daySeconds: 45 },
      plans: { free: { perMinute: 10, perDay: 60 }, pro: { perMinute: 20, perDay: 150 } },
      shape,
      latencyMs: [40, 80],
      seed,
    });
    const failed = r.checks.filter((c) => c.level === 'MUST' && c.outcome === 'fail').map((c) => c.id);
    expect({ seed, failed }).toEqual({ seed, failed: [] });
  });
});
