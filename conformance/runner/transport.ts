// The send every check uses, built as layers around the one transport (core/exchange.ts Send):
//   deadline → concurrency slot → pacing → guard (dead target) → count → observe → 429 retry.
// A 429 is never a check's failure: it is waited out (Retry-After, seconds or HTTP-date, never less;
// exponential backoff with a cap) and retried. Too many 429s in a row (no other answer to the key in
// between), or a wait longer than maxWaitMs, end the run (AbortRunError RATE_LIMITED): a banned key is
// worse than an incomplete run (§8.3 rule 3). Not a total: a correct server whose headers report the
// day quota hides its minute quota from pacing, so each minute boundary costs a few honoured 429s, and
// a long run would otherwise stop for no fault at all.
import type { Clock } from '../../core/clock.ts';
import { backoffDelayMs } from '../../core/backoff.ts';
import { AbortRunError } from '../../core/errors.ts';
import type { Exchange, HttpRequest, Send } from '../../core/exchange.ts';
import { guardTransport } from '../../core/guard.ts';
import { RATE_LIMIT_HEADERS } from '../../spec/contract.ts';
import { parseRetryAfter } from '../../spec/ratelimit.ts';
import { createPacer } from './pacing.ts';

export interface RunnerSendOptions {
  clock: Clock;
  /** Local ms after which every send rejects with RUN_TIMEOUT. */
  deadline: number;
  /** Requests of the whole run (retries included); beyond it sends reject with BUDGET. */
  budget: number;
  /** Requests at the end of the budget kept for a later phase (the coverage phase): read before every attempt, retries included. */
  reserved?: () => number;
  concurrency: number;
  /** Responses 429 in a row (see above) that stop the run. */
  max429: number;
  maxWaitMs: number;
  backoffBaseMs: number;
  backoffCapMs: number;
  /** Steer pacing by this request's answer (true for the valid key). */
  steers: (request: HttpRequest) => boolean;
  /** Sees every exchange, 429s included, before retry logic. */
  observe: (exchange: Exchange) => void;
}

export interface RunnerSend {
  send: Send;
  requests(): number;
}

export const DEFAULT_RUNNER = { concurrency: 4, max429: 20, maxWaitMs: 5 * 60_000, backoffBaseMs: 1000, backoffCapMs: 60_000 } as const;

function slots(n: number): () => Promise<() => void> {
  let free = n;
  const queue: Array<() => void> = [];
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else free += 1;
  };
  return async () => {
    if (free > 0) free -= 1;
    else await new Promise<void>((resolve) => queue.push(resolve));
    return release;
  };
}

export function createRunnerSend(base: Send, o: RunnerSendOptions): RunnerSend {
  const guarded = guardTransport(base);
  const pacer = createPacer({ clock: o.clock, maxPauseMs: o.maxWaitMs });
  const acquire = slots(o.concurrency);
  let count = 0;
  let run429 = 0;

  const checkTime = (waitMs = 0) => {
    if (o.clock.now() + waitMs > o.deadline) throw new AbortRunError('RUN_TIMEOUT', 'the run timeout was reached before the suite finished');
  };

  const once = async (request: HttpRequest): Promise<Exchange> => {
    checkTime();
    const reserved = o.reserved?.() ?? 0;
    if (count >= o.budget - reserved) throw new AbortRunError('BUDGET', reserved ? `the request budget (${o.budget}) is spent but for the ${reserved} kept for the coverage phase` : `the request budget (${o.budget}) is spent`);
    const release = await acquire();
    try {
      await pacer.before();
      count += 1;
      let exchange: Exchange | undefined;
      try {
        exchange = await guarded(request);
      } finally {
        if (exchange) pacer.after(exchange, o.steers(request));
        else pacer.after({ request, response: { status: 0, headers: {}, body: '' }, sentAt: 0, durationMs: 0 }, false);
      }
      if (exchange.response.status !== 429 && o.steers(request)) run429 = 0;
      o.observe(exchange);
      return exchange;
    } finally {
      release();
    }
  };

  const send: Send = async (request) => {
    for (let attempt = 1; ; attempt += 1) {
      const exchange = await once(request);
      if (exchange.response.status !== 429) return exchange;
      run429 += 1;
      if (run429 > o.max429) {
        throw new AbortRunError('RATE_LIMITED', `stopped after ${o.max429} responses 429 Too Many Requests in a row (continuing risks a ban of the key, §8.3 rule 3)`);
      }
      const retryAfter = parseRetryAfter(exchange.response.headers);
      const wait = backoffDelayMs(attempt - 1, retryAfter.ok ? retryAfter.value.seconds : undefined, { baseMs: o.backoffBaseMs, capMs: o.backoffCapMs });
      if (wait > o.maxWaitMs) {
        throw new AbortRunError('RATE_LIMITED', `the target asks to wait ${Math.round(wait / 1000)} s (Retry-After ${exchange.response.headers[RATE_LIMIT_HEADERS.retryAfter] ?? 'missing'}), longer than the ${Math.round(o.maxWaitMs / 1000)} s petcert waits`);
      }
      checkTime(wait);
      await o.clock.sleep(wait);
    }
  };

  return { send, requests: () => count };
}
