// A mergeable latency histogram (the DDSketch idea): log-spaced buckets, each holding the values in
// (MIN·γ^(i-1), MIN·γ^i] with γ = (1 + α) / (1 - α), so a bucket's representative 2·MIN·γ^i / (γ + 1)
// is within α = 1 % of any value in it. Counts of the same bucket add, so N runners' histograms merge
// exactly: a percentile of the merged histogram is within 1 % of the percentile of all their samples
// (k6's definition: linear interpolation between the closest ranks). Values ≤ MIN (50 µs, below what
// k6 itself adds to a request) count in bucket 0, reported as MIN. Pure and sobek-compatible (k6 counts
// it per step, Node merges it): no named groups, no URL, no structuredClone.

/** The stated relative error of every percentile read from a histogram. */
export const RELATIVE_ERROR = 0.01;
const GAMMA = (1 + RELATIVE_ERROR) / (1 - RELATIVE_ERROR);
const LOG_GAMMA = Math.log(GAMMA);
/** ms: values at or below it share bucket 0. */
export const MIN_MS = 0.05;

/** bucket index → count; only buckets that hold a value appear. */
export type Histogram = Record<string, number>;

/**
 * The bucket of a latency, on k6's hot path: one per request. Math.log is its only built-in: each Math
 * method a k6 VU touches is a function object in that VU (≈ 0.7 KB, README.md, 10,000 keys), so the
 * ceiling is arithmetic (x ≥ 0 and far below 2³¹ here: `| 0` truncates).
 */
export function bucketOf(ms: number): number {
  if (!(ms > MIN_MS)) return 0;
  // The epsilon keeps a value that is exactly a bucket's upper edge in that bucket despite rounding.
  const x = Math.log(ms / MIN_MS) / LOG_GAMMA - 1e-9;
  const ceiling = (x | 0) < x ? (x | 0) + 1 : x | 0;
  return ceiling < 1 ? 1 : ceiling;
}

/** The value reported for bucket i: within RELATIVE_ERROR of every value the bucket holds. */
export function valueOf(bucket: number): number {
  return bucket === 0 ? MIN_MS : (2 * MIN_MS * Math.pow(GAMMA, bucket)) / (GAMMA + 1);
}

export function record(h: Histogram, ms: number, count = 1): void {
  const b = String(bucketOf(ms));
  h[b] = (h[b] ?? 0) + count;
}

export function mergeHistograms(parts: readonly Histogram[]): Histogram {
  const out: Histogram = {};
  for (const h of parts) for (const b of Object.keys(h)) out[b] = (out[b] ?? 0) + h[b]!;
  return out;
}

export function countOf(h: Histogram): number {
  return Object.keys(h).reduce((sum, b) => sum + h[b]!, 0);
}

/** The value of the sample at 0-based rank r (sorted ascending), as its bucket reports it. */
function atRank(sorted: ReadonlyArray<[number, number]>, rank: number): number {
  let seen = 0;
  for (const [bucket, count] of sorted) {
    seen += count;
    if (rank < seen) return valueOf(bucket);
  }
  return valueOf(sorted[sorted.length - 1]![0]);
}

/**
 * Percentile p (0..100) the way k6 computes a Trend's p(N): rank p/100 × (n − 1), interpolated
 * linearly between the samples at the ranks either side. undefined for an empty histogram.
 */
export function percentile(h: Histogram, p: number): number | undefined {
  const sorted = Object.keys(h)
    .map((b): [number, number] => [Number(b), h[b]!])
    .filter(([, c]) => c > 0)
    .sort((a, b) => a[0] - b[0]);
  const n = sorted.reduce((sum, [, c]) => sum + c, 0);
  if (n === 0) return undefined;
  const i = (p / 100) * (n - 1);
  const lo = atRank(sorted, Math.floor(i));
  const hi = atRank(sorted, Math.ceil(i));
  return lo + (hi - lo) * (i - Math.floor(i));
}

/** The exact percentile of raw samples, by k6's rule: the oracle the histogram is held to. */
export function exactPercentile(samples: readonly number[], p: number): number | undefined {
  if (samples.length === 0) return undefined;
  const sorted = [...samples].sort((a, b) => a - b);
  const i = (p / 100) * (sorted.length - 1);
  const lo = sorted[Math.floor(i)]!;
  const hi = sorted[Math.ceil(i)]!;
  return lo + (hi - lo) * (i - Math.floor(i));
}

// k6 side: k6 aggregates across VUs only what it counts itself, and a check is counted by name, named
// at run time: each request passes one always-true check named for its step and bucket
// ("latency s3 b512"), and k6's summary lists every such name with its passes. No threshold per
// bucket (hundreds of sub-metrics cost k6 more CPU and memory than the requests), no tag filter.

const CHECK_PREFIX = 'latency s';

export const bucketCheck = (step: number, bucket: number): string => `${CHECK_PREFIX}${step} b${bucket}`;

/** One step's histogram back from k6's checks (name → passes). */
export function histogramFromChecks(checks: ReadonlyArray<{ name: string; passes: number }>, step: number): Histogram {
  const prefix = `${CHECK_PREFIX}${step} b`;
  const h: Histogram = {};
  for (const c of checks) {
    if (!c.name.startsWith(prefix) || c.passes <= 0) continue;
    const bucket = c.name.slice(prefix.length);
    if (/^\d+$/.test(bucket)) h[bucket] = (h[bucket] ?? 0) + c.passes;
  }
  return h;
}
