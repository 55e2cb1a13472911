// A Date answered after the 429 hold bounds the server's clock from when the request left, not from when the
// probe asked. Found by the every-knob draw (generated-limiters.test.ts, seed 5 of a 3,000-draw hunt): a
// declared token bucket chained day then minute, Reset rounded down, a proxy's Date 400 ms ahead on every
// other answer. A held request's Date contradicted the clock's upper bound, which was then taken afresh from
// when the probe had asked, 3 s before the hold let the request go: the clock read 2.4 s ahead, and a correct
// Reset failed quota.headers.reset ("1893468361 is not a Unix time (s) within the 3 s minute window from the
// server's Date (1893468364)").
import { describe, expect, it } from 'vitest';
import { FAKE_START_MS } from '../../testkit/load/in-process.ts';
import { BUCKET_DECLARED, runShape } from '../../testkit/load/shape-run.ts';

const WINDOWS = { minuteSeconds: 3, daySeconds: 45 };
const PLANS = { free: { perMinute: 10, perDay: 60 }, pro: { perMinute: 20, perDay: 150 } };

const drawn = (seed: number) =>
  runShape({
    windows: WINDOWS,
    plans: PLANS,
    shape: {
      meter: 'token-bucket',
      originMs: FAKE_START_MS - 1683,
      headers: { chain: ['day', 'minute'] },
      resetRoundedDown: true,
      decimalRetryAfter: true,
      retryAfterWindow: true,
      dateSkewMs: (n: number) => (n % 2 === 0 ? 0 : 400),
    },
    latencyMs: [0, 30],
    seed,
    declared: BUCKET_DECLARED,
  });

describe('the server clock after a held request', () => {
  it('a correct bucket behind a proxy whose Date runs ahead: no MUST rule failed (the drawn case)', async () => {
    const r = await drawn(79040);
    const failed = r.checks.filter((c) => c.level === 'MUST' && c.outcome === 'fail');
    expect(failed.map((c) => `${c.id}: ${c.failures[0]?.message}`)).toEqual([]);
    // The case holds requests: without a hold it would not test the fix.
    expect(r.log.some((l) => l.kind === 'answer' && l.status === 429)).toBe(true);
  });
});
