// Dated headers (Reset and Retry-After as RFC 1123 dates in UTC, sethvargo/go-limiter's form): no 429 says which
// quota refused, so the day probe tells the day's 429 by its Retry-After alone. Draws of the wider generated hunt
// that failed a correct limiter's day, each now unjudged or passed; quota.headers.valid still fails the dates.
import { describe, expect, it } from 'vitest';
import type { MeterKind } from '../../../testkit/load/limiter-shapes.ts';
import { FAKE_START_MS } from '../../../testkit/load/in-process.ts';
import { BUCKET_DECLARED, runShape } from '../../../testkit/load/shape-run.ts';

const WINDOWS = { minuteSeconds: 3, daySeconds: 45 };
const PLANS = { free: { perMinute: 10, perDay: 60 }, pro: { perMinute: 20, perDay: 150 } };

interface Draw {
  meter: MeterKind;
  phaseMs: number;
  chain?: ['minute', 'day'] | ['day', 'minute'];
  retryAfterWindow?: boolean;
  proxySkewMs: number;
  latencyMs: [number, number];
  seed: number;
}

async function dayFailures(d: Draw): Promise<string[]> {
  const bucket = d.meter === 'token-bucket' || d.meter === 'gcra';
  const r = await runShape({
    windows: WINDOWS,
    plans: PLANS,
    shape: {
      meter: d.meter,
      originMs: FAKE_START_MS - d.phaseMs,
      headers: d.chain ? { chain: d.chain } : 'binding',
      datedUtc: true,
      ...(d.retryAfterWindow ? { retryAfterWindow: true } : {}),
      ...(d.proxySkewMs ? { dateSkewMs: (n: number) => (n % 2 === 0 ? 0 : d.proxySkewMs) } : {}),
    },
    latencyMs: d.latencyMs,
    seed: d.seed,
    ...(bucket ? { declared: BUCKET_DECLARED } : {}),
  });
  expect(r.failed.some((f) => f.startsWith('quota.headers.valid'))).toBe(true);
  return r.checks
    .filter((c) => c.level === 'MUST' && c.outcome === 'fail' && !c.id.startsWith('quota.headers.valid'))
    .map((c) => `${c.id}: ${c.failures[0]?.message}`);
}

describe('dated headers: the day of a correct limiter is never failed', () => {
  it.for<[string, Draw]>([
    [
      // The day counts what the minute then refuses; the wave that spent the day was answered in one millisecond.
      'a day first in a chain, its last wave answered at one instant ("43 requests admitted in one day window")',
      {
        meter: 'aligned',
        phaseMs: 774,
        chain: ['day', 'minute'],
        retryAfterWindow: true,
        proxySkewMs: 0,
        latencyMs: [0, 0],
        seed: 2,
      },
    ],
    [
      'a day first in a chain behind a proxy\'s Date ("46 requests admitted in one day window")',
      { meter: 'aligned', phaseMs: 2992, chain: ['day', 'minute'], proxySkewMs: 400, latencyMs: [0, 0], seed: 376 },
    ],
    [
      // The minute's Retry-After reached past the count's estimate of the minute window's end, not past a window.
      'a declared GCRA whose minute 429 was taken for the day\'s ("99 requests admitted in one day window")',
      { meter: 'gcra', phaseMs: 9, proxySkewMs: 400, latencyMs: [20, 60], seed: 97 },
    ],
    [
      'a declared token bucket chained minute then day ("100 requests admitted in one day window")',
      {
        meter: 'token-bucket',
        phaseMs: 1832,
        chain: ['minute', 'day'],
        proxySkewMs: 400,
        latencyMs: [20, 60],
        seed: 382,
      },
    ],
  ])('%s', async ([, d]) => {
    expect(await dayFailures(d)).toEqual([]);
  });
});
