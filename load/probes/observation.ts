// What one probe request brought back, as the probes and the rules read it. A leaf: the run's context
// (context.ts) carries these without importing the code that sends them.
import type { Exchange } from '../../core/exchange.ts';
import type { RateLimitRead, RateLimitState, RetryAfter } from '../../spec/ratelimit.ts';
import type { Sample } from '../../report/model.ts';

export type QuotaKind = 'minute' | 'day' | 'unknown';

export interface Observation {
  ex: Exchange;
  status: number;
  admitted: boolean;
  rate?: RateLimitState;
  retryAfter?: RetryAfter;
  /** Server ms at the response (estimated from Date headers). */
  serverMs: number;
  /** Local ms the request was sent and answered, on the probe's clock. */
  sentLocal: number;
  receivedLocal: number;
  /** Which quota the headers report, by their Limit figure. */
  quota: QuotaKind;
  /** Its sample in the series (answers of one wave are recorded in arrival order, not the server's). */
  sample?: Sample;
}

/** One probe answer, and its X-RateLimit-* as read (the response rules judge the problem when not ok). */
export interface Sent {
  o: Observation;
  headers: RateLimitRead;
}
