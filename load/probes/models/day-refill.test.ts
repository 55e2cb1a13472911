import { describe, expect, it } from 'vitest';
import type { ReferenceOptions } from '../../../reference/app.ts';
import { parsePlansFile, resolvePlan, type DeclaredModel } from '../../../spec/plans.ts';
import { inProcessTarget, contextOn } from '../../../testkit/load/in-process.ts';
import { runProbes } from '../run.ts';
import type { Observation } from '../observe.ts';
import { dayRefills, refusalBeforeReset } from './day-refill.ts';

// The limiter proofs' free plan: 20 per 2 s minute, 100 per 20 s day (a day token every 200 ms).
const DAY_S = 20;
const T0 = 1_795_500_000_000;

/** Paced as the day probe paces: 20 requests 15 ms apart (answered 5 ms later), the next minute window 2 s later. */
function paced(
  n: number,
  reset: (i: number, tMs: number) => number,
  quota: Observation['quota'] = 'day',
): Observation[] {
  return Array.from({ length: n }, (_, i) => {
    const t = T0 + Math.floor(i / 20) * 2000 + (i % 20) * 15;
    return {
      admitted: true,
      status: 200,
      quota,
      sentLocal: t,
      receivedLocal: t + 5,
      serverMs: t + 5,
      rate: { limit: 100, remaining: 50, reset: reset(i, t) },
    } as Observation;
  });
}

const bucketReset = (i: number, t: number): number => Math.ceil((t + Math.min(100, i / 2 + 1) * 200) / 1000);

describe('dayRefills (a day told refilling from its own Resets)', () => {
  it('tells a token-bucket day: "full again" rises 200 ms a request, faster than time', () => {
    // Capacity 100 refilled 5/s, paced at 10/s from full: the deficit grows by about one every two requests.
    expect(dayRefills(paced(120, bucketReset), DAY_S)).toMatch(/rose \d+ s over/);
  });

  it('never tells a fixed day, aligned or opened by a first request, nor one whose Reset jitters by a second', () => {
    const end = Math.ceil(T0 / 1000) + 7;
    expect(
      dayRefills(
        paced(120, () => end),
        DAY_S,
      ),
    ).toBeUndefined();
    // The next day window a whole window (rounded) later, opened by a first request: a jump, not a rise.
    expect(
      dayRefills(
        paced(120, (i) => (i < 60 ? end : end + DAY_S - 1)),
        DAY_S,
      ),
    ).toBeUndefined();
    expect(
      dayRefills(
        paced(120, (i) => end + (i % 2)),
        DAY_S,
      ),
    ).toBeUndefined();
  });

  it('never tells a sliding log, whose Reset (now + a day) moves with time only', () => {
    expect(
      dayRefills(
        paced(120, (_, t) => Math.ceil(t / 1000) + DAY_S),
        DAY_S,
      ),
    ).toBeUndefined();
  });

  it('reads only answers reporting the day quota', () => {
    expect(dayRefills(paced(120, bucketReset, 'minute'), DAY_S)).toBeUndefined();
  });
});

describe("refusalBeforeReset (a day 429 pointing before its admitted answers' Reset)", () => {
  const end = Math.ceil(T0 / 1000) + 20;
  const refusal = (reset: number) =>
    ({
      admitted: false,
      status: 429,
      quota: 'day',
      sentLocal: T0 + 30,
      receivedLocal: T0 + 35,
      serverMs: T0 + 35,
      rate: { limit: 100, remaining: 0, reset },
    }) as Observation;

  it('tells a bucket: admitted answers report "full again", its 429 "one more fits" (GCRA and token-bucket headers)', () => {
    expect(
      refusalBeforeReset(
        paced(10, () => end),
        refusal(end - 19),
      ),
    ).toMatch(/before the \d+ its admitted answers reported/);
  });

  it("never tells a fixed day: its 429 reports its window's end, or a second off when rounded from a jittering end", () => {
    expect(
      refusalBeforeReset(
        paced(10, () => end),
        refusal(end),
      ),
    ).toBeUndefined();
    expect(
      refusalBeforeReset(
        paced(10, () => end),
        refusal(end - 1),
      ),
    ).toBeUndefined();
    expect(
      refusalBeforeReset(
        paced(10, () => end - DAY_S),
        refusal(end),
      ),
    ).toBeUndefined();
    expect(refusalBeforeReset([], refusal(end))).toBeUndefined();
  });
});

// The day probe alone (--only day: no minute probe tells the model) on the reference server in virtual time.
const roomy = parsePlansFile({
  windows: { minuteSeconds: 2, daySeconds: 20 },
  plans: { free: { perMinute: 20, perDay: 100 } },
});

async function dayOnly(options: ReferenceOptions, declared?: DeclaredModel) {
  const t = inProcessTarget({ plans: roomy, keys: { pc_free_dddddddddddd: 'free' }, ...options });
  const ctx = contextOn(t, roomy.windows, { declared });
  const r = await runProbes(ctx, [{ key: 'pc_free_dddddddddddd', plan: resolvePlan(roomy, 'free') }], ['day'], []);
  return (id: string) => r.checks.find((c) => c.id === `${id}[free]`);
}

describe('day probe alone on a day that refills (GAPS.md "Requests per day")', () => {
  it('passes a declared token-bucket day, fully judged: up to perDay plus its refill is what a declared bucket allows', async () => {
    const check = await dayOnly({ variants: { limiterModel: 'token-bucket' } }, 'token-bucket');
    expect(check('quota.day.exact')?.outcome).toBe('pass');
    expect(check('quota.day.retry-after')?.outcome).toBe('pass');
  });

  it("fails the same day undeclared: more than perDay within one day's length, under the window reading", async () => {
    const check = await dayOnly({ variants: { limiterModel: 'token-bucket' } });
    expect(check('quota.day.exact')?.outcome).toBe('fail');
    expect(check('quota.day.exact')?.failures[0]?.message).toMatch(/window reading/);
  });

  it('still passes the fixed day exactly', async () => {
    const check = await dayOnly({});
    expect(check('quota.day.exact')?.outcome).toBe('pass');
    expect(check('quota.day.retry-after')?.outcome).toBe('pass');
  });

  it('fails a token-bucket server whose day is not enforced', async () => {
    const check = await dayOnly({ variants: { limiterModel: 'token-bucket' }, faults: { noDayQuota: true } });
    expect(check('quota.day.exact')?.outcome).toBe('fail');
  });
});
