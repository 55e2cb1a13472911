// The names of petcert's limiter-model vocabulary, apart from the catalog (catalog.ts) so the recognisers
// and the reading (reading.ts) can name them without importing the catalog that lists the recognisers.

/**
 * What the evidence of one key can tell (report.json `quota.model`): a fixed window (with its start when
 * shown), a sliding log, a sliding window counter, a limiter refilling with time (a token bucket or GCRA,
 * and a sliding log whose whole-second Resets look like one), or nothing.
 */
export type LimiterModelName = 'fixed' | 'sliding-log' | 'sliding-counter' | 'token-bucket' | 'unknown';

/** Every model the catalog knows, one entry each (catalog.ts CATALOG). */
export const MODEL_NAMES = [
  'fixed-aligned',
  'fixed-first-request',
  'fixed',
  'sliding-log',
  'sliding-counter',
  'token-bucket',
  'gcra',
  'two-limiters',
  'unknown',
] as const;

export type ModelName = (typeof MODEL_NAMES)[number];
