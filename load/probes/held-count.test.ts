// A count held past the window it was timed for. An aligned minute chained before the day (its 200s report
// the day) answers a 429 just before the end its Reset names, with a Retry-After of the window's length: the
// 429 hold (send.ts) kept the count's first request until 2.5 s into the fresh 3 s window, and its waves
// straddled that window's end: "24 admitted within 2.6 s of one 3 s minute" failed quota.minute.exact on a
// correct limiter (the every-knob draw, about 1 in 4,000). The count now starts a window later when the hold
// would release it too late in the window to end in it.
import { describe, expect, it } from 'vitest';
import { FAKE_START_MS } from '../../testkit/load/in-process.ts';
import { runShape } from '../../testkit/load/shape-run.ts';

const WINDOWS = { minuteSeconds: 3, daySeconds: 45 };
const PLANS = { free: { perMinute: 10, perDay: 60 }, pro: { perMinute: 20, perDay: 150 } };

const chainedAt = (phaseMs: number, seed: number, overAdmit = 0) =>
  runShape({
    windows: WINDOWS,
    plans: PLANS,
    shape: {
      meter: 'aligned',
      originMs: FAKE_START_MS - phaseMs,
      headers: { chain: ['minute', 'day'] },
      retryAfterWindow: true,
      ...(overAdmit ? { faults: { overAdmit } } : {}),
    },
    latencyMs: [20, 60],
    seed,
  });

const mustFailed = (r: Awaited<ReturnType<typeof runShape>>) =>
  r.checks.filter((c) => c.level === 'MUST' && c.outcome === 'fail').map((c) => `${c.id}: ${c.failures[0]?.message}`);

describe('a minute count the 429 hold would release late in its window', () => {
  it('the drawn correct limiter: no MUST rule failed, quota.minute.exact judged', async () => {
    const r = await chainedAt(2059, 11);
    expect(mustFailed(r)).toEqual([]);
    expect(r.checks.find((c) => c.id === 'quota.minute.exact[pro]')?.outcome).toBe('pass');
  });

  it('its twin admitting one more per window still fails quota.minute.exact', async () => {
    const r = await chainedAt(2059, 11, 1);
    expect(mustFailed(r).some((f) => f.startsWith('quota.minute.exact'))).toBe(true);
  });
});
