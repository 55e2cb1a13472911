import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bucketCheck,
  bucketOf,
  exactPercentile,
  histogramFromChecks,
  MIN_MS,
  mergeHistograms,
  percentile,
  record,
  RELATIVE_ERROR,
  valueOf,
  type Histogram,
} from './histogram.ts';

const histogramOf = (values: readonly number[]): Histogram => {
  const h: Histogram = {};
  for (const v of values) record(h, v);
  return h;
};
const latency = fc.double({ min: MIN_MS, max: 60_000, noNaN: true });

describe('latency histogram', () => {
  it('every value ≥ MIN is reported within 1 % by its bucket', () => {
    fc.assert(fc.property(latency, (ms) => Math.abs(valueOf(bucketOf(ms)) - ms) <= RELATIVE_ERROR * ms * (1 + 1e-9)));
  });

  it('the arithmetic ceiling puts every value in the bucket Math.ceil would, edges and the smallest values included', () => {
    const gamma = (1 + RELATIVE_ERROR) / (1 - RELATIVE_ERROR);
    const oracle = (ms: number): number =>
      ms > MIN_MS ? Math.max(1, Math.ceil(Math.log(ms / MIN_MS) / Math.log(gamma) - 1e-9)) : 0;
    const edge = fc.integer({ min: 0, max: 2_000 }).map((i) => MIN_MS * gamma ** i);
    const values = fc.oneof(
      latency,
      edge,
      edge.map((v) => v * (1 + 1e-12)),
      fc.double({ min: 0, max: MIN_MS * 1.0001, noNaN: true }),
    );
    fc.assert(
      fc.property(values, (ms) => bucketOf(ms) === oracle(ms)),
      { numRuns: 5_000 },
    );
  });

  it("any percentile of merged histograms is within 1 % of the exact percentile of all samples (k6's rule)", () => {
    const runner = fc.array(latency, { minLength: 1, maxLength: 300 });
    fc.assert(
      fc.property(
        fc.array(runner, { minLength: 1, maxLength: 3 }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        (runners, p) => {
          const merged = mergeHistograms(runners.map(histogramOf));
          const exact = exactPercentile(runners.flat(), p)!;
          return Math.abs(percentile(merged, p)! - exact) <= RELATIVE_ERROR * exact * (1 + 1e-9);
        },
      ),
    );
  });

  it('merging adds counts bucket by bucket; an empty histogram has no percentile', () => {
    expect(mergeHistograms([histogramOf([1, 1, 2]), histogramOf([1])])).toEqual(histogramOf([1, 1, 1, 2]));
    expect(percentile({}, 50)).toBeUndefined();
  });

  it('values at or below MIN share bucket 0 (reported as MIN); 60 s is bucket ' + bucketOf(60_000), () => {
    expect([bucketOf(0), bucketOf(MIN_MS), valueOf(0)]).toEqual([0, 0, MIN_MS]);
    expect(bucketOf(60_000)).toBeLessThan(720);
  });

  it('travels through k6 as checks named for step and bucket, read back per step', () => {
    const checks = [
      { name: bucketCheck(3, 12), passes: 4 },
      { name: bucketCheck(3, 99), passes: 1 },
      { name: bucketCheck(13, 12), passes: 7 },
      { name: 'other', passes: 2 },
    ];
    expect(histogramFromChecks(checks, 3)).toEqual({ 12: 4, 99: 1 });
    expect(histogramFromChecks(checks, 1)).toEqual({});
  });
});
