// Never hammer (§7: the client must wait Retry-After; §8.3 rules 2–3: back off exponentially, or risk a
// ban of the key). After a 429 on a key, nothing more is sent on that key until the 429's Retry-After has
// elapsed from its arrival, whatever Reset, Remaining or the caller's plan say: the caller cannot send
// sooner, because this layer sits under every caller. A 429 without a readable Retry-After, and every
// further 429 in a row, hold the key for an exponential backoff from `backoffBaseMs`. Requests already in
// flight when a 429 arrives are not held (a burst sends them on purpose) and do not lengthen the backoff;
// any answer that is not a 429 ends the run of 429s.
import type { Clock } from './clock.ts';
import type { Exchange, HttpRequest } from './exchange.ts';
import type { Layer } from './layer.ts';

export interface Hold429Options {
  clock: Clock;
  /** The key a request spends (its Authorization header): each key is held on its own. */
  keyOf: (request: HttpRequest) => string;
  /** Milliseconds a 429 asks the client to wait, when its Retry-After is readable. */
  retryAfterMs: (exchange: Exchange) => number | undefined;
  backoffBaseMs: number;
  /** The backoff's ceiling (Retry-After may still ask for more, up to `maxWaitMs`). */
  backoffCapMs: number;
  /** Longest hold this layer waits: a longer one is refused (`refuse`), never waited or skipped. */
  maxWaitMs: number;
  /** 429s in a row on one key after which nothing more is sent on it (`refuse`). */
  maxInRow: number;
  /** 429s answered after a hold (a wait Retry-After or the backoff asked for) after which the run sends nothing more. */
  maxHeldPerRun: number;
  /** The wait itself: the run's deadline refuses one that would pass it. */
  sleep: (ms: number) => Promise<void>;
  /** The error that ends a send refused here; `waitMs` is set when the refusal is a wait too long. */
  refuse: (why: string, waitMs?: number) => Error;
}

interface KeyHold {
  /** Local ms before which nothing is sent on the key. */
  until: number;
  /** Requests sent on the key so far. */
  sent: number;
  /** Of those, the ones sent before the current run of 429s began (a 429 to one of them is of that wave). */
  before: number;
  /** 429s in a row, counting one per wave of requests sent together. */
  inRow: number;
}

/** The wait after the `inRow`-th 429 in a row: what Retry-After asks, and at least the backoff from the 2nd on. */
export function holdMs(
  inRow: number,
  retryAfterMs: number | undefined,
  baseMs: number,
  capMs = Number.POSITIVE_INFINITY,
): number {
  const backoff = Math.min(capMs, baseMs * 2 ** Math.max(0, inRow - 1));
  if (retryAfterMs === undefined) return backoff;
  return Math.max(retryAfterMs, inRow > 1 ? backoff / 2 : 0);
}

export function hold429(o: Hold429Options): Layer {
  const holds = new Map<string, KeyHold>();
  let held429s = 0;
  const holdOf = (key: string): KeyHold => {
    let h = holds.get(key);
    if (!h) holds.set(key, (h = { until: -Infinity, sent: 0, before: 0, inRow: 0 }));
    return h;
  };
  /** Waits until the key may send; returns how long it waited, read from the wait's own clock readings. */
  const waitOut = async (h: KeyHold): Promise<number> => {
    const first = h.until - o.clock.now();
    let left = first;
    while (left > 0) {
      if (left > o.maxWaitMs)
        throw o.refuse(
          `the key's last 429 asks to wait ${Math.ceil(left / 1000)} s more, beyond the ${Math.round(o.maxWaitMs / 1000)} s petcert waits`,
          left,
        );
      await o.sleep(left);
      left = h.until - o.clock.now();
    }
    return first > 0 ? first - left : 0;
  };
  const after429 = (h: KeyHold, exchange: Exchange, nth: number): void => {
    const now = o.clock.now();
    // A 429 to a request sent before the current run of 429s began is of the same wave: no longer a backoff.
    if (nth > h.before) {
      h.inRow += 1;
      h.before = h.sent;
      if (h.inRow > 1) held429s += 1;
    }
    h.until = Math.max(h.until, now + holdMs(h.inRow, o.retryAfterMs(exchange), o.backoffBaseMs, o.backoffCapMs));
  };
  // Checked before sending, so the 429 that reaches a cap still reaches its caller as evidence.
  const refusal = (h: KeyHold): Error | undefined => {
    const ban = '(continuing risks a ban of the key, §8.3 rule 3)';
    if (h.inRow >= o.maxInRow)
      return o.refuse(
        `stopped: the key was answered 429 ${h.inRow} times in a row, each after waiting what the last asked ${ban}`,
      );
    if (held429s >= o.maxHeldPerRun)
      return o.refuse(
        `stopped: ${held429s} responses 429 came after waiting what the previous 429 asked, the most one run sends ${ban}`,
      );
    return undefined;
  };
  return (next) => async (request) => {
    const h = holdOf(o.keyOf(request));
    const refused = refusal(h);
    if (refused) throw refused;
    const heldMs = await waitOut(h);
    const nth = (h.sent += 1);
    const answered = await next(request);
    // The caller's own clock reading precedes the hold: it learns when the request really left.
    const exchange = heldMs > 0 ? { ...answered, heldMs } : answered;
    // Any admission ends the run of 429s (the hold already set stays): the key is answered again, and a 429
    // answered after it begins a new run, whenever its request was sent.
    if (exchange.response.status === 429) after429(h, exchange, nth);
    else [h.inRow, h.before] = [0, 0];
    return exchange;
  };
}
