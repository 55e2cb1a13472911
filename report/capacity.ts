// The `capacity` object of report.json (an interface: fields are only added, docs/decisions/008): rates in
// requests per second. load/capacity/ computes it; the HTML, JUnit and console render it.

/** exact: one runner's (k6's own); histogram: several runners' merged histograms, within 1 %; upper-bound: older logs. */
export type PercentileKind = 'exact' | 'histogram' | 'upper-bound';

export type StepVerdict = 'ok' | 'slo' | 'generator';

export interface CapacityStep {
  offeredRate: number;
  achievedRate: number;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  errorRate: number;
  droppedIterations: number;
  below_quota_429: number;
  verdict: StepVerdict;
  /** more fields: the SLO terms broken, every percentile reported, whether they are exact */
  breaches: string[];
  percentilesMs: Record<string, number | null>;
  percentiles: PercentileKind;
  requests: number;
  /** Of `requests`, those with no HTTP answer (k6's status 0; absent on older reports). */
  noAnswer?: number;
  unexpected4xx: number;
  runners: number;
  coverage: number;
}

export interface CapacityVerdict {
  plannedRate: number;
  sustainedRate: number;
  breakingRate: number | null;
  headroom: number;
  generatorLimit: number | null;
  slo: { latencyMs: Record<string, number>; errorRate: number | null; achievedShare: number; text: string };
  steps: CapacityStep[];
  minHeadroom: number;
  generatorLimitIsLowerBound: boolean;
  /** set when the generator saturated before the target broke */
  generatorBoundAt: number | null;
  scale: number;
  /** the highest rate tested when --scale-to-keys lowered it */
  keysBoundAt: number | null;
  summary: string;
  /** The canary keys' windows (load/capacity/canary.ts judges them). */
  canaries?: CapacityCanary[];
  /** plan → planned req/s of the mix */
  mix?: Record<string, number>;
  /** plan → keys carrying load */
  keys?: Record<string, number>;
  /** What the plan said about itself (no spare key for a canary, the canaries' share of their step). */
  notes?: string[];
}

export interface CapacityCanary {
  plan: string;
  perMinute: number;
  step: number;
  sent: number;
  /**
   * per minute window, keyed by the X-RateLimit-Reset the server gave it; with the send-order positions
   * of its last admitted and first refused answer (absent: none, or a line of an earlier bundle)
   */
  windows: Array<{ reset: number; admitted: number; rejected: number; lastAdmitted?: number; firstRejected?: number }>;
  /** 429s without a valid Retry-After */
  missingRetryAfter: number;
  transportErrors: number;
}
