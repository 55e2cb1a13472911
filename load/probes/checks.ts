// The quota checks: one table of id → title, level and the spec section each enforces. Each probe's
// rules (findings.ts `rule`) name their check by key; the report id carries the plan
// ("quota.minute.exact[free]") so plans never merge.
import { defineCheck as def } from '../../report/check.ts';

export const CHECKS = {
  status: def('quota.status', 'MUST', '§4.1', 'GET /pets?limit=1 answers 200, or 429 over the limit'),
  headersValid: def(
    'quota.headers.valid',
    'MUST',
    '§8.2',
    'X-RateLimit-Limit, -Remaining and -Reset are on every response: Limit and Remaining non-negative integers, Reset a Unix timestamp',
  ),
  resetInteger: def(
    'quota.headers.reset-integer',
    'SHOULD',
    '§8.2',
    'X-RateLimit-Reset is in whole seconds (a fraction is still a Unix timestamp)',
  ),
  applicable: def(
    'quota.headers.applicable',
    'SHOULD',
    '§8.2',
    'An admitted answer reporting Remaining > 0 is not followed by a 429 of another quota: its headers describe "the request limit currently applicable"',
  ),
  limit: def('quota.headers.limit', 'MUST', '§8.2', "X-RateLimit-Limit is the plan's figure for the quota it reports"),
  remaining: def(
    'quota.headers.remaining',
    'MUST',
    '§8.2',
    'X-RateLimit-Remaining counts down by one per admitted request, from Limit-1 to 0',
  ),
  reset: def(
    'quota.headers.reset',
    'MUST',
    '§8.2',
    'X-RateLimit-Reset is the Unix time (seconds) at which the window ends, constant within the window',
  ),
  minuteExact: def(
    'quota.minute.exact',
    'MUST',
    '§8.1',
    'A fresh minute window admits exactly the plan’s requests per minute, the next gets 429',
  ),
  retryAfterPresent: def(
    'quota.retry-after.present',
    'MUST',
    '§8.3 rule 2',
    '429 carries Retry-After as delay-seconds or an HTTP-date (RFC 9110 §10.2.3)',
  ),
  retryAfterForm: def(
    'quota.retry-after.form',
    'SHOULD',
    'RFC 9110 §10.2.3',
    'Retry-After is delay-seconds (a whole number) or an HTTP-date, not a decimal number of seconds',
  ),
  retryAfterAccurate: def(
    'quota.retry-after.accurate',
    'MUST',
    '§8.3 rule 2',
    'Retry-After points at the reset of the quota that refused (not zero, not too long) and agrees with X-RateLimit-Reset',
  ),
  recovery: def('quota.recovery', 'MUST', '§7', 'After waiting Retry-After, requests are admitted again'),
  nextWindow: def('quota.rejected.next-window', 'MUST', '§8.1', "429 responses do not shrink the next window's quota"),
  rejectedConsume: def(
    'quota.rejected.consume',
    'OBSERVE',
    '§8.3 (not shown)',
    'Whether 429 responses count against the day quota',
  ),
  dayExact: def(
    'quota.day.exact',
    'MUST',
    '§8.1',
    'Paced at the minute limit, a day window admits exactly the plan’s requests per day, then 429',
  ),
  dayRetryAfter: def(
    'quota.day.retry-after',
    'MUST',
    '§8.3 rule 2',
    "The day quota's 429 carries Retry-After pointing at the day's reset",
  ),
  dayHeaders: def(
    'quota.day.headers',
    'OBSERVE',
    '§8.2 (not shown)',
    'Which quota X-RateLimit-* report as the day quota becomes binding',
  ),
  burstExact: def(
    'quota.burst.exact',
    'MUST',
    '§8.1',
    'Many more simultaneous requests than the limit on a fresh window admit exactly the limit',
  ),
  burstRemaining: def(
    'quota.burst.remaining',
    'MUST',
    '§8.2',
    'Under concurrency the Remaining values of one window are distinct and contiguous',
  ),
  isolation: def('quota.isolation', 'MUST', '§8.1', "One key's exhausted quota does not limit another key"),
  model: def(
    'quota.model',
    'OBSERVE',
    '§8 (not shown)',
    "The limiter's model the minute count shows (fixed window, sliding log, sliding window counter, token bucket); fixed-window rules apply only to a fixed " +
      'window',
  ),
} as const;

export type CheckKey = keyof typeof CHECKS;

/** Checks each probe owns (findings.ts `judge`): one its rules did not reach is reported unjudged, never silently absent. */
export const PROBE_CHECKS = {
  minute: [
    'status',
    'headersValid',
    'resetInteger',
    'limit',
    'remaining',
    'reset',
    'minuteExact',
    'retryAfterPresent',
    'retryAfterAccurate',
    'recovery',
    'nextWindow',
    'model',
  ],
  day: ['dayExact', 'dayRetryAfter', 'dayHeaders', 'rejectedConsume'],
  burst: ['burstExact', 'burstRemaining'],
  isolation: ['isolation'],
} as const satisfies Record<string, readonly CheckKey[]>;

export type ProbeName = keyof typeof PROBE_CHECKS;
export const PROBE_NAMES = Object.keys(PROBE_CHECKS) as ProbeName[];
