// A bucket 0–200 ms away each way on 2 s windows (pro 40 per window) refills while a wave is in flight: once a
// whole wave past the figure is admitted, each wave also carries what the bucket refills over a round trip, and
// the count drains it to its 429 (a wave sized to the bucket at sending never did: these seeds reached the
// backstop unjudged). A server too slow to outrun the refill still ends unjudged, never failed.
import { describe, expect, it } from 'vitest';
import { BUCKET_DECLARED, runShape } from '../../testkit/load/shape-run.ts';
import type { MeterKind } from '../../testkit/load/limiter-shapes.ts';

const windows = { minuteSeconds: 2, daySeconds: 20 };
const plans = { free: { perMinute: 20, perDay: 100 }, pro: { perMinute: 40, perDay: 160 } };

describe('a count that drains a refilling bucket', () => {
  it.for<{ meter: MeterKind; seed: number }>([
    { meter: 'gcra', seed: 4 },
    { meter: 'gcra', seed: 13 },
    { meter: 'token-bucket', seed: 27 },
    { meter: 'token-bucket', seed: 29 },
  ])('$meter, seed $seed, 0–200 ms: quota.minute.exact judged and passed', async ({ meter, seed }) => {
    const r = await runShape({
      declared: BUCKET_DECLARED,
      windows,
      plans,
      shape: { meter, headers: 'binding' },
      latencyMs: [0, 200],
      seed,
      only: ['minute'],
    });
    expect(r.failed).toEqual([]);
    expect(r.checks.find((c) => c.id === 'quota.minute.exact[pro]')?.outcome).toBe('pass');
  });
});

describe('a count that reached its backstop without a 429', () => {
  // 45 ms a request, one at a time: 22 answered a second against pro's refill of 20 a second.
  it.for<MeterKind>(['gcra', 'token-bucket'])(
    '%s behind a server barely faster than its refill: unjudged, never failed',
    async (meter) => {
      const r = await runShape({
        declared: BUCKET_DECLARED,
        windows,
        plans,
        shape: { meter, headers: 'binding' },
        latencyMs: [0, 50],
        serviceMs: 45,
        seed: 1,
        only: ['minute'],
      });
      expect(r.failed.filter((f) => f.startsWith('quota.minute.exact'))).toEqual([]);
      const exact = r.checks.find((c) => c.id === 'quota.minute.exact[pro]');
      expect(exact).toMatchObject({
        outcome: 'skip',
        skipKind: 'unjudged',
        skipReason: expect.stringMatching(/before the count's backstop/),
      });
      expect(exact?.fix).toMatch(/minute window longer/);
    },
  );

  it('a fixed window over-admitting past the backstop still fails quota.minute.exact', async () => {
    const r = await runShape({
      windows,
      plans,
      shape: { meter: 'aligned', headers: 'binding', faults: { overAdmit: 200 } },
      latencyMs: [0, 30],
      seed: 1,
      only: ['minute'],
    });
    expect(r.failed.some((f) => f.startsWith('quota.minute.exact[pro]'))).toBe(true);
  });
});

// The fence post: a wave is read in the server's order, and the span a bucket
// refilled over ran to the answer of the request last in that order, not to the wave's latest answer. At 0–200 ms
// each way the two differ by up to a round trip: seeds 24 and 51 (of 60, GCRA and token bucket alike) were failed
// as over-admission by one ("139 requests admitted …; a unknown limiter at most 138 over these 4945 ms"; the count
// reached the server over 5203 ms). The bound is not loosened: windows admitting one more than the figure still fail.
describe('the span of a count runs to its latest answer', () => {
  it.for<{ meter: MeterKind; seed: number }>([
    { meter: 'gcra', seed: 24 },
    { meter: 'gcra', seed: 51 },
    { meter: 'token-bucket', seed: 24 },
    { meter: 'token-bucket', seed: 51 },
  ])('$meter, seed $seed, 0–200 ms: quota.minute.exact never failed', async ({ meter, seed }) => {
    const r = await runShape({
      declared: BUCKET_DECLARED,
      windows,
      plans,
      shape: { meter, headers: 'binding' },
      latencyMs: [0, 200],
      seed,
      only: ['minute'],
    });
    expect(r.failed).toEqual([]);
  });

  it.for<MeterKind>(['aligned', 'first-use'])(
    'a %s window admitting one more than the figure, same seeds: still failed',
    async (meter) => {
      for (const seed of [24, 51]) {
        const r = await runShape({
          declared: BUCKET_DECLARED,
          windows,
          plans,
          shape: { meter, headers: 'binding', faults: { overAdmit: 1 } },
          latencyMs: [0, 200],
          seed,
          only: ['minute'],
        });
        expect({ seed, failed: r.failed.some((f) => f.startsWith('quota.minute.exact[pro]')) }).toEqual({
          seed,
          failed: true,
        });
      }
    },
  );
});
