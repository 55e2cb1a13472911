// Deliberate limiter faults, for proving petcert's own checks fail on a faulty server. Never on by
// default: `{}` is the correct reference server. Each fault bends the limiter at exactly one point
// (reference/limiter.ts), named in the comment beside it.
export interface ReferenceFaults {
  /** Admit this many extra requests per minute window (Limit header still claims the plan figure). */
  overAdmit?: number;
  /** The minute quota is not enforced (headers report the day quota). */
  noMinuteQuota?: boolean;
  /** The day quota is not enforced (headers report the minute quota). */
  noDayQuota?: boolean;
  /** X-RateLimit-Limit reports figure + offset. */
  limitHeaderOffset?: number;
  /** X-RateLimit-Remaining never decreases. */
  remainingStuck?: boolean;
  /** X-RateLimit-Remaining goes below 0 on rejected requests (minus the number rejected so far). */
  remainingNegative?: boolean;
  /** X-RateLimit-Reset in Unix milliseconds. */
  resetMillis?: boolean;
  /** X-RateLimit-Reset as seconds until the reset instead of a Unix timestamp. */
  resetDelta?: boolean;
  /** Retry-After left out, "0", or one day-window longer than the real wait. */
  retryAfter?: 'missing' | 'zero' | 'tooLong';
  /** Once a quota is spent, every request is still refused for one whole extra window after its reset. */
  noRecovery?: boolean;
  /** Keys on plan A are limited with plan B's figures (and the headers say B's figures). */
  planAlias?: Record<string, string>;
  /** All keys share one counter (each still judged against its own plan's figures). */
  sharedBucket?: boolean;
  /** Check, then await, then count: over-admits under concurrency. */
  racy?: boolean;
  /** Each 429 is charged against the NEXT minute window. */
  rejectedConsumeNext?: boolean;
}

/** Every fault name with a one-line description (README, `petcert serve --help`-style listings, tests). */
export const FAULT_DESCRIPTIONS: Record<keyof ReferenceFaults, string> = {
  overAdmit: 'admits N extra requests per minute window while the Limit header claims the plan figure',
  noMinuteQuota: 'does not enforce the per-minute quota',
  noDayQuota: 'does not enforce the per-day quota',
  limitHeaderOffset: 'X-RateLimit-Limit reports the plan figure plus an offset',
  remainingStuck: 'X-RateLimit-Remaining never decreases',
  remainingNegative: 'X-RateLimit-Remaining goes negative on rejected requests',
  resetMillis: 'X-RateLimit-Reset is in Unix milliseconds',
  resetDelta: 'X-RateLimit-Reset is seconds-until-reset, not a timestamp',
  retryAfter: 'Retry-After missing, zero, or a day-window too long',
  noRecovery: 'keeps refusing for a whole extra window after the reset',
  planAlias: "a plan is limited with another plan's figures",
  sharedBucket: 'all keys share one counter',
  racy: 'check-then-count across an await: over-admits under concurrency',
  rejectedConsumeNext: 'each 429 is charged against the next minute window',
};
