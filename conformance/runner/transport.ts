// The send every check uses: the one transport (core/exchange.ts Send) under a stack of layers, the
// outermost first: a 429 waited out and retried → the request budget → a concurrency slot → pacing by
// the server's headers → the key held after a 429 → the run's deadline → judging every exchange → counting → the dead-target guard.
// A 429 is never a check's failure (core/retry-429.ts). Its limit is 429s in a row, not a total: a
// correct server whose headers report the day quota hides its minute quota from pacing, so each minute
// boundary costs a few honoured 429s, and a long run would otherwise stop for no fault at all.
// The deadline sits below the slot and the pacing pause, and every wait goes through it: nothing is sent
// past the run timeout, so a run ends within it plus one request's timeout (conformance/run.ts). The hold
// sits under the slots: a 429 holds every request of its key, in any slot, until its Retry-After has elapsed.
import type { Clock } from '../../core/clock.ts';
import { budget } from '../../core/budget.ts';
import { counter } from '../../core/count.ts';
import { deadline } from '../../core/deadline.ts';
import { AbortRunError } from '../../core/errors.ts';
import type { Exchange, HttpRequest, Send } from '../../core/exchange.ts';
import { guard } from '../../core/guard.ts';
import { hold429 } from '../../core/hold-429.ts';
import { stack } from '../../core/layer.ts';
import { retry429 } from '../../core/retry-429.ts';
import { slots } from '../../core/slots.ts';
import { tap } from '../../core/tap.ts';
import { RATE_LIMIT_HEADERS } from '../../spec/contract.ts';
import { parseRetryAfter, retryAfterMs } from '../../spec/ratelimit.ts';
import { pacing } from './pacing.ts';

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

export const DEFAULT_RUNNER = {
  concurrency: 4,
  max429: 20,
  maxWaitMs: 5 * 60_000,
  backoffBaseMs: 1000,
  backoffCapMs: 60_000,
} as const;

/** A conformance request is sent once: a transport failure is the check's evidence, not retried. */
export const CONFORM_TRIES = 1;

function retryAfterOf(exchange: Exchange): { seconds: number | undefined; text: string | undefined } {
  const read = parseRetryAfter(exchange.response.headers);
  return {
    seconds: read.ok ? read.value.seconds : undefined,
    text: exchange.response.headers[RATE_LIMIT_HEADERS.retryAfter],
  };
}

export function createRunnerSend(base: Send, o: RunnerSendOptions): RunnerSend {
  const timedOut = () => new AbortRunError('RUN_TIMEOUT', 'the run timeout was reached before the suite finished');
  const timeout = deadline(o.clock, o.deadline, timedOut);
  const count = counter();
  const kept = (reserved: number) => (reserved ? ` but for the ${reserved} kept for the coverage phase` : '');
  const spent = (reserved: number) =>
    new AbortRunError('BUDGET', `the request budget (${o.budget}) is spent${kept(reserved)}`);
  const backoff = { baseMs: o.backoffBaseMs, capMs: o.backoffCapMs };
  const send = stack(
    base,
    retry429({
      max429: o.max429,
      maxWaitMs: o.maxWaitMs,
      backoff,
      retryAfter: retryAfterOf,
      steers: o.steers,
      sleep: timeout.sleep,
    }),
    budget({ limit: o.budget, spent: count.count, reserved: o.reserved, refuse: spent }),
    slots(o.concurrency),
    pacing({ clock: o.clock, maxPauseMs: o.maxWaitMs, steers: o.steers, sleep: timeout.sleep }),
    hold429({
      // The same backoff as the retry above, which stops the run first (after max429 + 1 429s in a row);
      // the budget caps a run's 429s as it caps its requests.
      backoffBaseMs: o.backoffBaseMs,
      backoffCapMs: o.backoffCapMs,
      maxInRow: o.max429 + 2,
      maxHeldPerRun: o.budget,
      clock: o.clock,
      keyOf: (request) => request.headers.authorization ?? '',
      retryAfterMs: (exchange) => retryAfterMs(exchange.response.headers),
      maxWaitMs: o.maxWaitMs,
      sleep: timeout.sleep,
      refuse: (why) => new AbortRunError('RATE_LIMITED', why),
    }),
    timeout.layer,
    tap(o.observe),
    count.layer,
    guard(),
  );
  return { send, requests: count.count };
}
