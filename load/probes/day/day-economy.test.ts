// Economy of the day probe: wherever in the day window the probe starts, it spends about
// perDay requests and ceil(perDay/perMinute) minute windows of counting, never a second whole day. The
// sample sent at the very start of the day window is placed by its minute Reset, not discarded.
import { describe, expect, it } from 'vitest';
import type { ReferenceOptions } from '../../../reference/app.ts';
import { parsePlansFile, resolvePlan } from '../../../spec/plans.ts';
import { inProcessTarget, contextOn } from '../../../testkit/load/in-process.ts';
import { DAY_FIT_MARGIN } from './day.ts';
import { runProbes } from '../run.ts';

const table = parsePlansFile({
  windows: { minuteSeconds: 1, daySeconds: 30 },
  plans: { biz: { perMinute: 50, perDay: 1000 } },
});
const windows = Math.ceil(1000 / 50); // 20 of the day's 30

async function dayProbe(startOffsetMs: number, options: ReferenceOptions & { skewMs?: number } = {}) {
  const skewMs = options.skewMs ?? -3 * 3_600_000 - 417;
  const dayMs = 30_000;
  // Server time at the probe's start sits `startOffsetMs` into a day window.
  const serverStart = Math.floor(Date.UTC(2031, 2, 3) / dayMs) * dayMs + startOffsetMs;
  const t = inProcessTarget({
    plans: table,
    keys: { pc_biz_cccccccccccc: 'biz' },
    skewMs,
    startMs: serverStart - skewMs,
    ...options,
  });
  const ctx = contextOn(t, table.windows);
  const r = await runProbes(
    ctx,
    [{ key: 'pc_biz_cccccccccccc', plan: resolvePlan(table, 'biz') }],
    ['minute', 'day'],
    [],
  );
  const outcome = (id: string) => r.checks.find((c) => c.id === `${id}[biz]`)?.outcome;
  const daySamples = r.series['day:biz'] ?? [];
  return { outcome, daySamples, elapsedMs: t.clock.now() - (serverStart - skewMs), requests: t.count() };
}

describe('day probe economy', () => {
  it.for([200, 5_000, 9_500, 12_000, 20_000, 29_950])(
    'starting %i ms into the day window: ≈ perDay requests, no second day',
    async (offset) => {
      const r = await dayProbe(offset);
      expect(r.outcome('quota.day.exact')).toBe('pass');
      expect(r.outcome('quota.day.retry-after')).toBe('pass');
      // Minute probe (≤ 2 windows, ≈ 2×50 requests) + the day count: perDay, one deliberate 429, the final 429, and at
      // most one request in a day window too short to count.
      expect(r.requests).toBeLessThanOrEqual(1000 + 2 * 50 + 10);
      expect(r.daySamples.length).toBeLessThanOrEqual(1000 + 4);
      // The physical minimum: the minute probe (≤ 2 windows), then the first day window with room for the
      // count (the rest of the current one, when too short — with the probe's safety margin — is waited out
      // idle), then ~20 windows of counting.
      const dayStartAfterMinute = (offset + 2_000) % 30_000;
      const idle =
        30_000 - dayStartAfterMinute < (windows + 1) * 1000 * DAY_FIT_MARGIN ? 30_000 - dayStartAfterMinute : 0;
      expect(r.elapsedMs).toBeLessThanOrEqual(2_000 + idle + (windows + 2) * 1000);
    },
  );

  it('a sample sent right at the start of the day window is counted, not a reason for the slow path', async () => {
    const r = await dayProbe(12_000);
    const final = r.daySamples[r.daySamples.length - 1]!;
    expect(final).toMatchObject({ status: 429, limit: 1000 });
    const counted = r.daySamples.filter((s) => s.status === 200 && s.t >= final.reset! * 1000 - 30_000);
    expect(counted).toHaveLength(1000);
    expect(counted[0]!.reset).toBe(final.reset! - 30 + 1); // the first counted request is in the day's first minute window
  });

  // Headers that hide the minute allowance: the minute probe counts one more window (the one after its
  // 429) so that quota.rejected.next-window is judged, not skipped: one window of requests more.
  it.for([
    ['headers report the minute quota', { variants: { headerQuota: 'minute' } }, 2],
    ['headers report the day quota', { variants: { headerQuota: 'day' } }, 3],
    ['429s consume the quota', { variants: { rejectedConsume: true } }, 2],
    ['Retry-After as HTTP-date', { variants: { retryAfterForm: 'http-date' } }, 2],
    ['server clock 9 h ahead', { skewMs: 9 * 3_600_000 + 123 }, 2],
  ] as const)('stays economical when %s', async ([, options, minuteWindows]) => {
    const r = await dayProbe(20_000, options as ReferenceOptions);
    expect(r.outcome('quota.day.exact')).toBe('pass');
    expect(r.outcome('quota.rejected.next-window')).toBe('pass');
    expect(r.requests).toBeLessThanOrEqual(1000 + minuteWindows * 50 + 10);
  });
});
