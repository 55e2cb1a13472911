// What every reference limiter answers (limiter.ts, limiter-models.ts): apart from both, so neither imports the other's types.
import type { Plan } from '../spec/plans.ts';

export interface RateHeaders {
  limit: number;
  remaining: number;
  /** As sent in X-RateLimit-Reset (normally Unix seconds). */
  reset: number;
}

export interface Decision {
  admitted: boolean;
  headers: RateHeaders;
  /** Only on refusal: ms since the epoch at which the binding quota resets. */
  retryAtMs?: number;
}

export interface Limiter {
  /** Decides and counts in one synchronous step. `force` admits regardless (used only by the racy fault). */
  take(bucket: string, plan: Plan, nowMs: number, force?: boolean): Decision;
  /** Decides without counting. */
  peek(bucket: string, plan: Plan, nowMs: number): Decision;
  /** Number of buckets held (for the memory-bound test). */
  size(): number;
}
