// A 429 is waited out and the request sent again: never sooner than Retry-After asks, with exponential
// backoff and a cap (§8.3 rules 2–3: hammering after a 429 risks a ban of the key). Too many 429s in a
// row (no other answer to the key in between), or a wait longer than `maxWaitMs`, end the run
// (AbortRunError RATE_LIMITED): a banned key is worse than an incomplete run (§8.3 rule 3).
import { backoffDelayMs } from './backoff.ts';
import { AbortRunError } from './errors.ts';
import type { Exchange, HttpRequest } from './exchange.ts';
import type { Layer } from './layer.ts';

export interface Retry429Options {
  /** 429s in a row that stop the run. */
  max429: number;
  maxWaitMs: number;
  backoff: { baseMs: number; capMs: number };
  /** What the 429 asked for: its Retry-After in seconds when readable, and the header as sent (for the message). */
  retryAfter: (exchange: Exchange) => { seconds: number | undefined; text: string | undefined };
  /** Does this request's answer speak for the key (a 401 may report another bucket)? */
  steers: (request: HttpRequest) => boolean;
  /** The wait itself: the run's deadline refuses one that would pass it (core/deadline.ts). */
  sleep: (ms: number) => Promise<void>;
}

export function retry429(o: Retry429Options): Layer {
  let inRow = 0;
  const rateLimited = (message: string) => new AbortRunError('RATE_LIMITED', message);
  return (next) => async (request) => {
    for (let attempt = 0; ; attempt += 1) {
      const exchange = await next(request);
      if (exchange.response.status !== 429) {
        if (o.steers(request)) inRow = 0;
        return exchange;
      }
      inRow += 1;
      if (inRow > o.max429)
        throw rateLimited(
          `stopped after ${o.max429} responses 429 Too Many Requests in a row (continuing risks a ban of the key, §8.3 rule 3)`,
        );
      const asked = o.retryAfter(exchange);
      const wait = backoffDelayMs(attempt, asked.seconds, o.backoff);
      if (wait > o.maxWaitMs) {
        const s = (ms: number) => Math.round(ms / 1000);
        throw rateLimited(
          `the target asks to wait ${s(wait)} s (Retry-After ${asked.text ?? 'missing'}), longer than the ${s(o.maxWaitMs)} s petcert waits`,
        );
      }
      await o.sleep(wait);
    }
  };
}
