// Limiters fast-check builds (virtual time): a model, where its windows start, how it rounds Reset, how far
// away it is, whether it counts its refusals, how its Retry-After reads, a proxy's Date, and one fault or
// none. A correct one is never failed on a MUST rule; a faulty one fails the rule its fault breaks.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HeaderMode, MeterKind, ShapeFaults, ShapeOptions } from '../../testkit/load/limiter-shapes.ts';
import { FAKE_START_MS } from '../../testkit/load/in-process.ts';
import { BUCKET_DECLARED, runShape } from '../../testkit/load/shape-run.ts';

const WINDOWS = { minuteSeconds: 3, daySeconds: 45 };
const PLANS = { free: { perMinute: 10, perDay: 60 }, pro: { perMinute: 20, perDay: 150 } };

/** Each fault and the rule it breaks (ids without the plan label). */
const FAULTS: Record<string, [ShapeFaults, string]> = {
  overAdmit: [{ overAdmit: 1 }, 'quota.minute.exact|quota.burst.exact|quota.headers.remaining'],
  noRetryAfter: [{ noRetryAfter: true }, 'quota.retry-after.present'],
  noDay: [{ noDay: true }, 'quota.day.exact'],
};

/** Draws every property shares: how far away the limiter is, the run's seed, a windowed model and its phase. */
const LATENCY = fc.constantFrom<[number, number]>([0, 0], [0, 30], [20, 60]);
const SEED = fc.integer({ min: 1, max: 1000 });
const WINDOWED = fc.constantFrom<MeterKind>('aligned', 'first-use', 'moving-window');
const PHASE = fc.integer({ min: 0, max: 2999 });
/** How far a proxy's clock, writing Date on every other answer, is from the limiter's (ms). */
const PROXY_SKEW = fc.constantFrom(0, 0, 250, 400);
/** A drawn windowed model, its windows starting `phaseMs` before the virtual clock's start. */
const phased = (d: { meter: MeterKind; phaseMs: number }) => ({ meter: d.meter, originMs: FAKE_START_MS - d.phaseMs });
type Order = ['minute', 'day'] | ['day', 'minute'];
/** A proxy writing Date on every other answer, its clock `ms` from the limiter's (two replicas, one behind it). */
const proxyDate = (ms: number) => (ms ? { dateSkewMs: (n: number) => (n % 2 === 0 ? 0 : ms) } : {});
const mustFailed = (r: Awaited<ReturnType<typeof runShape>>) =>
  r.checks.filter((c) => c.level === 'MUST' && c.outcome === 'fail');

const shape = fc.record({
  // Sliding-window counters have their own rows (unseen-limiters.test.ts): drawn here, one whose Retry-After
  // is the window's length begins the next window short by as many as its 429s, which the charging fault
  // shows alike, and the probe sends no request late enough in that window to tell them apart.
  meter: WINDOWED,
  phaseMs: PHASE,
  resetRoundedDown: fc.boolean(),
  retryAfterWindow: fc.boolean(),
  // rate-limiter-flexible's decimal Retry-After; slowapi's Reset a second after the window's expiry.
  decimalRetryAfter: fc.boolean(),
  resetLateMs: fc.constantFrom(0, 0, 1000),
  proxySkewMs: PROXY_SKEW,
  latencyMs: LATENCY,
  seed: SEED,
  fault: fc.constantFrom<keyof typeof FAULTS | 'none'>('none', 'none', 'none', 'overAdmit', 'noRetryAfter', 'noDay'),
});
type Drawn = typeof shape extends fc.Arbitrary<infer T> ? T : never;

function optionsOf(d: Drawn): Omit<ShapeOptions, 'windows'> {
  return {
    ...phased(d),
    headers: 'binding',
    resetRoundedDown: d.resetRoundedDown,
    retryAfterWindow: d.retryAfterWindow,
    decimalRetryAfter: d.decimalRetryAfter,
    resetLateMs: d.resetLateMs,
    ...proxyDate(d.proxySkewMs),
    ...(d.fault === 'none' ? {} : { faults: FAULTS[d.fault]![0] }),
  };
}

describe('generated limiters (fast-check)', () => {
  it('a correct one is never failed; a faulty one fails the rule its fault breaks', async () => {
    await fc.assert(
      fc.asyncProperty(shape, async (d) => {
        const r = await runShape({
          windows: WINDOWS,
          plans: PLANS,
          shape: optionsOf(d),
          latencyMs: d.latencyMs,
          seed: d.seed,
        });
        const failed = mustFailed(r).map((c) => `${c.id}: ${c.failures[0]?.message}`);
        if (d.fault === 'none') expect(failed).toEqual([]);
        else
          expect(
            failed.map((f) => f.split('[')[0]).some((id) => new RegExp(`^(${FAULTS[d.fault]![1]})$`).test(id!)),
          ).toBe(true);
      }),
      { numRuns: 150, seed: 20261128 },
    );
  }, 300_000);
});

/**
 * A declared bucket is allowed what it refills over a count, so one over the figure may hide in it (spec/GAPS.md,
 * "Limiter model" limits): its over-admission fault admits a burst's worth more.
 */
const BUCKET_FAULTS: typeof FAULTS = { ...FAULTS, overAdmit: [{ overAdmit: 10 }, FAULTS.overAdmit![1]] };

/** Buckets both ways: declared (judged as one) or not (the window reading), correct or with one fault. */
const bucket = fc.record({
  meter: fc.constantFrom<MeterKind>('token-bucket', 'gcra'),
  declared: fc.boolean(),
  latencyMs: LATENCY,
  seed: SEED,
  fault: fc.constantFrom<keyof typeof FAULTS | 'none'>('none', 'none', 'overAdmit', 'noRetryAfter', 'noDay'),
});

const EXACT = /^quota\.(minute|burst|day)\.exact$/;

describe('generated buckets (fast-check), declared or not', () => {
  it('declared, a correct one is never failed and a faulty one fails its rule; undeclared, an exact count fails under the window reading', async () => {
    await fc.assert(
      fc.asyncProperty(bucket, async (d) => {
        const shape = {
          meter: d.meter,
          headers: 'binding' as const,
          ...(d.fault === 'none' ? {} : { faults: BUCKET_FAULTS[d.fault]![0] }),
        };
        const r = await runShape({
          windows: WINDOWS,
          plans: PLANS,
          shape,
          latencyMs: d.latencyMs,
          seed: d.seed,
          ...(d.declared ? { declared: BUCKET_DECLARED } : {}),
        });
        const failed = mustFailed(r).map((c) => [c.id.split('[')[0]!, c.failures[0]?.message ?? ''] as const);
        if (!d.declared) {
          // More than the figure within one window's length, fault or none: an exact count fails, naming the reading.
          const exact = failed.filter(([id]) => EXACT.test(id));
          expect(exact.length).toBeGreaterThan(0);
          if (d.fault === 'none') for (const [, message] of exact) expect(message).toMatch(/window reading/);
        } else if (d.fault === 'none') expect(failed).toEqual([]);
        else expect(failed.some(([id]) => new RegExp(`^(${BUCKET_FAULTS[d.fault]![1]})$`).test(id))).toBe(true);
      }),
      { numRuns: 150, seed: 20261128 },
    );
  }, 300_000);
});

/**
 * Headers petcert cannot read, as real libraries write them: Reset and Retry-After as RFC 1123 dates in UTC
 * (sethvargo/go-limiter), or two chained limiters each adding its values ("20, 100", ulule/limiter), with or
 * without Retry-After. Whatever the model, phase, order and distance, the only MUST findings are the headers
 * themselves and a missing Retry-After (on the minute's 429 or the day's): nothing they leave unplaced is failed
 * as the limiter's counting.
 */
const unreadable = fc.record({
  meter: WINDOWED,
  phaseMs: PHASE,
  form: fc.constantFrom<'dated' | 'joined'>('dated', 'joined'),
  order: fc.constantFrom<Order | 'binding'>(['minute', 'day'], ['day', 'minute'], 'binding'),
  noRetryAfter: fc.boolean(),
  proxySkewMs: PROXY_SKEW,
  latencyMs: LATENCY,
  seed: SEED,
});

/** Joined values need two limiters that each write their own: a binding one joined is read as minute then day. */
function headerMode(form: 'dated' | 'joined', order: Order | 'binding'): HeaderMode {
  if (order === 'binding' && form === 'dated') return 'binding';
  const chain: Order = order === 'binding' ? ['minute', 'day'] : order;
  return { chain, ...(form === 'joined' ? { joined: true as const } : {}) };
}

describe('generated limiters whose headers cannot be read (fast-check)', () => {
  it('fail quota.headers.valid, and the Retry-After rules without one, and nothing else', async () => {
    await fc.assert(
      fc.asyncProperty(unreadable, async (d) => {
        const shape: Omit<ShapeOptions, 'windows'> = {
          ...phased(d),
          headers: headerMode(d.form, d.order),
          ...(d.form === 'dated' ? { datedUtc: true } : {}),
          ...proxyDate(d.proxySkewMs),
          ...(d.noRetryAfter ? { faults: { noRetryAfter: true } } : {}),
        };
        const r = await runShape({ windows: WINDOWS, plans: PLANS, shape, latencyMs: d.latencyMs, seed: d.seed });
        const failed = new Set(mustFailed(r).map((c) => c.id.split('[')[0]!));
        const missing = d.noRetryAfter ? ['quota.retry-after.present', 'quota.day.retry-after'] : [];
        const allowed = ['quota.headers.valid', ...missing];
        expect([...failed].filter((id) => !allowed.includes(id))).toEqual([]);
        expect(failed.has('quota.headers.valid')).toBe(true);
      }),
      { numRuns: 200, seed: 20261129 },
    );
  }, 300_000);
});

/**
 * Two chained limiters with honest headers, each writing its own (the last to run wins on a 200, the refusing one
 * on a 429), in either order, Retry-After to the end or the window's length, a proxy's Date or not: a correct pair
 * is never failed. Found by it and fixed: a burst timed on the minute's whole-second Reset whose 200s report the
 * day straddled the end ("18 admitted, the plan allows 10"); a day count whose give-up lies past the day window
 * counted the next window's admissions as its own ("61 requests admitted within one day window").
 */
const chained = fc.record({
  meter: WINDOWED,
  phaseMs: PHASE,
  resetRoundedDown: fc.boolean(),
  fractionalReset: fc.boolean(),
  retryAfterWindow: fc.boolean(),
  proxySkewMs: PROXY_SKEW,
  order: fc.constantFrom<Order>(['minute', 'day'], ['day', 'minute']),
  latencyMs: LATENCY,
  seed: SEED,
});

describe('generated pairs of chained limiters (fast-check)', () => {
  it('a correct pair is never failed', async () => {
    await fc.assert(
      fc.asyncProperty(chained, async (d) => {
        const shape: Omit<ShapeOptions, 'windows'> = {
          ...phased(d),
          resetRoundedDown: d.resetRoundedDown,
          fractionalReset: d.fractionalReset,
          retryAfterWindow: d.retryAfterWindow,
          ...proxyDate(d.proxySkewMs),
          headers: { chain: d.order },
        };
        const r = await runShape({ windows: WINDOWS, plans: PLANS, shape, latencyMs: d.latencyMs, seed: d.seed });
        const failed = mustFailed(r);
        expect(failed.map((c) => `${c.id}: ${c.failures[0]?.message}`)).toEqual([]);
      }),
      { numRuns: 200, seed: 1 },
    );
  }, 300_000);
});

/**
 * Every knob at once, correct limiters only: any model (buckets declared), one limiter or a chain in either order,
 * Reset rounded or late, Retry-After to the end, the window's length, decimal or a date, dates in UTC, a proxy's
 * Date, any distance. Found by it and fixed: a bucket's 429 naming when it is full again read as a fixed window
 * ("24 requests admitted from a full minute allowance"); with dated headers a minute 429 taken for the day's, and a
 * day-first chain's last wave answered in one millisecond not seen racing ("43 requests admitted in one day window").
 */
const anyLimiter = fc.record({
  meter: fc.constantFrom<MeterKind>('aligned', 'first-use', 'moving-window', 'token-bucket', 'gcra'),
  phaseMs: PHASE,
  order: fc.constantFrom<Order | 'binding'>(['minute', 'day'], ['day', 'minute'], 'binding'),
  datedUtc: fc.boolean(),
  resetRoundedDown: fc.boolean(),
  retryAfterWindow: fc.boolean(),
  decimalRetryAfter: fc.boolean(),
  resetLateMs: fc.constantFrom(0, 0, 1000),
  proxySkewMs: PROXY_SKEW,
  latencyMs: LATENCY,
  seed: SEED,
});

describe('generated limiters, every header form (fast-check)', () => {
  it('a correct one is never failed; dated Resets fail quota.headers.valid alone', async () => {
    await fc.assert(
      fc.asyncProperty(anyLimiter, async (d) => {
        const bucket = d.meter === 'token-bucket' || d.meter === 'gcra';
        // A date is the whole form: Reset and Retry-After both, to the second (sethvargo/go-limiter).
        const form = d.datedUtc
          ? { datedUtc: true }
          : {
              resetRoundedDown: d.resetRoundedDown,
              decimalRetryAfter: d.decimalRetryAfter,
              resetLateMs: d.resetLateMs,
            };
        const shape: Omit<ShapeOptions, 'windows'> = {
          ...phased(d),
          headers: d.order === 'binding' ? 'binding' : { chain: d.order },
          ...form,
          retryAfterWindow: d.retryAfterWindow,
          ...proxyDate(d.proxySkewMs),
        };
        const r = await runShape({
          windows: WINDOWS,
          plans: PLANS,
          shape,
          latencyMs: d.latencyMs,
          seed: d.seed,
          ...(bucket ? { declared: BUCKET_DECLARED } : {}),
        });
        const failed = mustFailed(r)
          .filter((c) => !(d.datedUtc && c.id.startsWith('quota.headers.valid')))
          .map((c) => `${c.id}: ${c.failures[0]?.message}`);
        expect(failed).toEqual([]);
      }),
      { numRuns: 400, seed: 20261130 },
    );
  }, 300_000);
});
