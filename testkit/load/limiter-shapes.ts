// Small rate limiters as real services build them (docs/decisions/007), for the probes' virtual-time tests:
// the counting rules and header forms of express-rate-limit's memory store and rate-limiter-flexible
// (a key's window starts at its first request after the last one ended), token buckets and GCRA, two
// independent middlewares each writing its own X-RateLimit-* (the last one to run wins), slowapi's
// fractional Reset and a Date cached for up to a second. Each is a *correct* server unless a fault is
// named. Not the libraries themselves (testkit/limiters/ runs those): the same behaviour, in virtual time.

export interface Take {
  admitted: boolean;
  remaining: number;
  /** Server ms at which the window the headers describe resets. */
  resetMs: number;
  /** Server ms at which one more request fits (refusals). */
  retryMs: number;
}

/** One quota of one key. */
export interface Meter {
  take(nowMs: number): Take;
  /**
   * The state at `nowMs` without counting (what limits' get_window_stats reads for slowapi's headers);
   * meters that cannot tell it without taking leave it out.
   */
  peek?(nowMs: number): Pick<Take, 'remaining' | 'resetMs'>;
}

export type MeterKind = 'first-use' | 'aligned' | 'token-bucket' | 'gcra' | 'moving-window' | 'sliding-counter';

/**
 * express-rate-limit's memory store, rate-limiter-flexible, slowapi's fixed window: the window opens at the key's
 * first request. `chargeNext`: each refusal is charged to the next window (the reference's rejectedConsumeNext).
 */
export function firstUse(limit: number, windowMs: number, chargeNext = false): Meter {
  let start = Number.NEGATIVE_INFINITY;
  let count = 0;
  let carried = 0;
  return {
    take(now) {
      if (now >= start + windowMs) {
        start = now;
        count = carried;
        carried = 0;
      }
      const admitted = count < limit;
      if (admitted) count++;
      else if (chargeNext) carried++;
      return { admitted, remaining: Math.max(0, limit - count), resetMs: start + windowMs, retryMs: start + windowMs };
    },
    // limits' MemoryStorage once the window expired: the key is gone, get() is 0 and get_expiry() is now.
    peek(now) {
      return now >= start + windowMs
        ? { remaining: limit, resetMs: now }
        : { remaining: Math.max(0, limit - count), resetMs: start + windowMs };
    },
  };
}

/** Fixed windows aligned to `originMs` (the epoch unless told). */
export function aligned(limit: number, windowMs: number, originMs = 0): Meter {
  let win = Number.NaN;
  let count = 0;
  return {
    take(now) {
      const w = Math.floor((now - originMs) / windowMs);
      if (w !== win) {
        win = w;
        count = 0;
      }
      const admitted = count < limit;
      if (admitted) count++;
      const end = originMs + (w + 1) * windowMs;
      return { admitted, remaining: Math.max(0, limit - count), resetMs: end, retryMs: end };
    },
  };
}

/** A bucket of `limit` tokens refilled continuously at `limit` per window; Reset = when full again. */
export function tokenBucket(limit: number, windowMs: number): Meter {
  const rate = limit / windowMs;
  let tokens = limit;
  let last: number | undefined;
  return {
    take(now) {
      if (last !== undefined && now > last) tokens = Math.min(limit, tokens + (now - last) * rate);
      last = Math.max(last ?? now, now);
      const admitted = tokens >= 1;
      if (admitted) tokens -= 1;
      return {
        admitted,
        remaining: Math.floor(tokens),
        resetMs: now + (limit - tokens) / rate,
        retryMs: now + Math.max(0, 1 - tokens) / rate,
      };
    },
  };
}

/** GCRA (redis-cell, throttled): emission interval window/limit, burst `limit`; Reset = the theoretical arrival time. */
export function gcra(limit: number, windowMs: number): Meter {
  const emission = windowMs / limit;
  const tau = windowMs; // a full burst of `limit` from idle
  let tat = Number.NEGATIVE_INFINITY;
  return {
    take(now) {
      const newTat = Math.max(tat, now) + emission;
      const allowAt = newTat - tau;
      const admitted = now >= allowAt;
      if (admitted) tat = newTat;
      const base = Math.max(tat, now);
      const remaining = Math.max(0, Math.floor((tau - (base - now)) / emission + 1e-9));
      return { admitted, remaining, resetMs: base, retryMs: admitted ? now : allowAt };
    },
  };
}

/**
 * The `limits` library's moving window (slowapi `strategy="moving-window"`; limits 5.8 MemoryStorage
 * acquire_entry / get_moving_window): a log of each admitted request, one admitted while fewer than `limit`
 * are younger than a window; Reset = the OLDEST counted request + a window (when one more fits), not the
 * newest + a window (reference/limiter-models.ts 'sliding-log', when the whole allowance is back).
 */
export function movingWindow(limit: number, windowMs: number): Meter {
  const times: number[] = [];
  const expire = (now: number): void => {
    while (times.length > 0 && times[0]! <= now - windowMs) times.shift();
  };
  const stats = (now: number): Pick<Take, 'remaining' | 'resetMs'> => ({
    remaining: limit - times.length,
    resetMs: (times[0] ?? now) + windowMs,
  });
  return {
    take(now) {
      expire(now);
      const admitted = times.length < limit;
      if (admitted) times.push(now);
      const { remaining, resetMs } = stats(now);
      return { admitted, remaining, resetMs, retryMs: resetMs };
    },
    // get_moving_window with no request in the window: (now, 0), so Reset = now + a window.
    peek(now) {
      expire(now);
      return stats(now);
    },
  };
}

/**
 * A sliding-window counter (the previous window's count weighted by the share of it still inside the
 * sliding span, plus the current window's), windows aligned to the limiter's own start `originMs`; refused
 * requests are not counted (`countRefused`: they are). The estimate is floored (the limits library), or
 * rounded to the nearest request (`roundWeight`: go-chi/httprate's math.Round). Reset names the current
 * window's end, Retry-After the time until the estimate drops below the limit, at least a millisecond.
 */
export function slidingCounter(limit: number, windowMs: number, originMs = 0, counter: CounterOptions = {}): Meter {
  const { countRefused = false, roundWeight = false } = counter;
  const whole = roundWeight ? Math.round : Math.floor;
  let win = Number.NaN;
  let current = 0;
  let previous = 0;
  const roll = (now: number): number => {
    const w = Math.floor((now - originMs) / windowMs);
    if (w !== win) {
      previous = w === win + 1 ? current : 0;
      current = 0;
      win = w;
    }
    return originMs + w * windowMs;
  };
  const estimate = (now: number, start: number): number => previous * (1 - (now - start) / windowMs) + current;
  return {
    take(now) {
      const start = roll(now);
      const admitted = whole(estimate(now, start)) < limit;
      if (admitted || countRefused) current++;
      const end = start + windowMs;
      const remaining = Math.max(0, limit - whole(estimate(now, start)));
      // The estimate falls as the previous window slides out: admitted again once previous·(1 - t) + current < below.
      const below = roundWeight ? limit - 0.5 : limit;
      const freeAt = previous > 0 && current < below ? start + windowMs * (1 - (below - current) / previous) : end;
      return { admitted, remaining, resetMs: end, retryMs: Math.max(now + 1, Math.min(end, freeAt)) };
    },
  };
}

/** How a sliding-window counter counts: its refused requests too, and its weighted estimate rounded rather than floored. */
export interface CounterOptions {
  countRefused?: boolean;
  roundWeight?: boolean;
}

export const meterOf = (
  kind: MeterKind,
  limit: number,
  windowMs: number,
  originMs = 0,
  counter: CounterOptions = {},
): Meter =>
  kind === 'first-use'
    ? firstUse(limit, windowMs)
    : kind === 'aligned'
      ? aligned(limit, windowMs, originMs)
      : kind === 'token-bucket'
        ? tokenBucket(limit, windowMs)
        : kind === 'moving-window'
          ? movingWindow(limit, windowMs)
          : kind === 'sliding-counter'
            ? slidingCounter(limit, windowMs, originMs, counter)
            : gcra(limit, windowMs);

/**
 * How the two quotas share X-RateLimit-*: 'binding' (one limiter checks both and reports the one closer to
 * exhaustion; on a 429 the refusing one), or two independent middlewares in `chain` order, each counting
 * the request that reaches it and writing its own headers, the last to run winning (the first refusal
 * ends the chain: its headers stay).
 * With `joined`, each middleware adds its own X-RateLimit-* instead of setting them (ulule/limiter's
 * `Header().Add`): an answer carries the values of every limiter that ran, in chain order, joined by ", ".
 */
export type HeaderMode = 'binding' | { chain: ['minute', 'day'] | ['day', 'minute']; joined?: true };

export interface ShapeFaults {
  /** Admits this many more than the minute figure. */
  overAdmit?: number;
  /** overAdmit's excess hidden from the minute's Remaining (lowered by it, ≥ 0), as testkit/limiters/faults.ts twins do. */
  hideOverAdmit?: boolean;
  /** The day quota is not enforced. */
  noDay?: boolean;
  /** Admits this many more than the day figure (headers still the plan's). */
  dayOverAdmit?: number;
  /** Remaining is off by one on admitted answers. */
  remainingOffByOne?: boolean;
  /** Remaining one too high on admitted answers (express-rate-limit twin `wrongRemaining`). */
  remainingPlusOne?: boolean;
  /** No Retry-After on 429. */
  noRetryAfter?: boolean;
  /** Each minute 429 charged to the next window (first-use meters only; the reference's rejectedConsumeNext). */
  refusedChargeNext?: boolean;
}

export interface ShapeOptions {
  meter: MeterKind;
  /** The day quota's model when it differs from the minute's. */
  dayMeter?: MeterKind;
  headers: HeaderMode;
  windows: { minuteMs: number; dayMs: number };
  /** Server ms at which aligned windows start. */
  originMs?: number;
  /** slowapi: X-RateLimit-Reset as a float with microseconds (else rounded up, as express-rate-limit's Math.ceil). */
  fractionalReset?: boolean;
  /** X-RateLimit-Reset rounded down to the whole second (libraries writing Math.floor of the window's end). */
  resetRoundedDown?: boolean;
  /**
   * With `fractionalReset`: float noise added to the nth answer's Reset, in microseconds (the limits library's
   * sliding-window counter computes one window end as now + time left: 1795902853.0000117, .0000105, ...).
   */
  resetNoiseUs?: (n: number) => number;
  /**
   * The limiter reads its clock this long after counting the nth answer, before adding the time left (rlf-redis:
   * Date.now() once Redis's PTTL reply is in): a rounded Reset of one window end jitters across a whole second.
   */
  resetReadLateMs?: (n: number) => number;
  /** Refused requests are counted too (sliding-counter meters). */
  countRefused?: boolean;
  /** The weighted estimate rounded to the nearest request, not floored (sliding-counter meters: go-chi/httprate). */
  roundWeight?: boolean;
  /** Retry-After always the whole window length, whatever is left of it. */
  retryAfterWindow?: boolean;
  /** Date written by a proxy whose clock is this far from the limiter's (ms; per answer, e.g. two replicas). */
  dateSkewMs?: (n: number) => number;
  /** slowapi (the limits library): Reset one second after the window's expiry. */
  resetLateMs?: number;
  /**
   * slowapi (extension.py `_inject_headers`): X-RateLimit-* read this long after the request was counted
   * (once the endpoint returned, from the window's state then: a window that ended in between reads as
   * none, Remaining = Limit, Reset = now + resetLateMs); Retry-After = int(Reset - now) of that late Reset;
   * on an admitted answer the first quota (the minute), not the closer one. Needs a meter with `peek`.
   */
  slowapiHeadersAfterMs?: number;
  /** rate-limiter-flexible's README: `Retry-After: msBeforeNext / 1000`, a decimal number of seconds. */
  decimalRetryAfter?: boolean;
  /**
   * sethvargo/go-limiter: X-RateLimit-Reset and Retry-After both the window's end as Go's RFC 1123 date in UTC
   * (whole seconds, rounded down).
   */
  datedUtc?: boolean;
  /**
   * uvicorn: Date re-formatted by a timer, once a second when idle and every few under CPU starvation;
   * `lagMs(n, nowMs)` is the staleness of answer n, answered at server ms `nowMs`.
   */
  dateLagMs?: (n: number, nowMs: number) => number;
  faults?: ShapeFaults;
}

export interface ShapeAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface KeyState {
  minute: Meter;
  day: Meter;
}

function resetText(ms: number, fractional: boolean | undefined, down?: boolean, noiseUs = 0): string {
  if (fractional) return noiseUs === 0 ? (ms / 1000).toFixed(6) : (ms / 1000 + noiseUs / 1e6).toFixed(7);
  return String(down ? Math.floor(ms / 1000) : Math.ceil(ms / 1000));
}

/** slowapi's headers: the shown quota's state read at `atMs`, after the request was counted. */
function slowapiRead(
  shown: { quota: 'minute' | 'day'; t: Take },
  s: KeyState,
  atMs: number,
): { quota: 'minute' | 'day'; t: Take } {
  const meter = s[shown.quota];
  if (!meter.peek) throw new Error('slowapiHeadersAfterMs needs a meter that can peek (first-use)');
  return { quota: shown.quota, t: { ...shown.t, ...meter.peek(atMs) } };
}

/** A GET /pets handler limited by `options`, answering at server time `nowMs`. */
export function createShape(options: ShapeOptions, plans: Record<string, { perMinute: number; perDay: number }>) {
  const keys = new Map<string, KeyState>();
  const f = options.faults ?? {};
  let n = 0;
  const stateOf = (key: string, plan: { perMinute: number; perDay: number }): KeyState => {
    let s = keys.get(key);
    if (!s) {
      const { minuteMs, dayMs } = options.windows;
      s = {
        minute:
          f.refusedChargeNext && options.meter === 'first-use'
            ? firstUse(plan.perMinute + (f.overAdmit ?? 0), minuteMs, true)
            : meterOf(options.meter, plan.perMinute + (f.overAdmit ?? 0), minuteMs, options.originMs, options),
        day: meterOf(
          options.dayMeter ?? options.meter,
          f.noDay ? 1e12 : plan.perDay + (f.dayOverAdmit ?? 0),
          dayMs,
          options.originMs,
          options,
        ),
      };
      keys.set(key, s);
    }
    return s;
  };

  return function handle(key: string, plan: { perMinute: number; perDay: number }, nowMs: number): ShapeAnswer {
    const s = stateOf(key, plan);
    const figures = { minute: plan.perMinute, day: plan.perDay };
    const steps: Array<{ quota: 'minute' | 'day'; t: Take }> = [];
    if (options.headers === 'binding') {
      // One limiter: refuses when either quota is spent, counts an admitted request in both. A peek is a
      // take that is rolled back: meters here cannot peek, so the day is asked only when the minute admits.
      const m = s.minute.take(nowMs);
      const d = m.admitted ? s.day.take(nowMs) : undefined;
      steps.push({ quota: 'minute', t: m });
      if (d) steps.push({ quota: 'day', t: d });
    } else {
      for (const quota of options.headers.chain) {
        const t = s[quota].take(nowMs);
        steps.push({ quota, t });
        if (!t.admitted) break;
      }
    }
    const refused = steps.find((x) => !x.t.admitted);
    let shown: { quota: 'minute' | 'day'; t: Take };
    if (refused) shown = refused;
    else if (options.slowapiHeadersAfterMs !== undefined) shown = steps[0]!;
    else if (options.headers === 'binding') {
      shown = steps.reduce((a, b) =>
        b.t.remaining < a.t.remaining || (b.t.remaining === a.t.remaining && b.t.resetMs < a.t.resetMs) ? b : a,
      );
    } else shown = steps[steps.length - 1]!;
    if (options.slowapiHeadersAfterMs !== undefined)
      shown = slowapiRead(shown, s, nowMs + options.slowapiHeadersAfterMs);
    const hidden = f.hideOverAdmit && shown.quota === 'minute' ? Math.min(shown.t.remaining, f.overAdmit ?? 0) : 0;
    const remaining =
      shown.t.remaining -
      hidden -
      (f.remainingOffByOne && !refused && shown.t.remaining > 0 ? 1 : 0) +
      (f.remainingPlusOne && !refused ? 1 : 0);
    const lag = (options.dateLagMs?.(n, nowMs) ?? 0) - (options.dateSkewMs?.(n) ?? 0);
    n++;
    const headers: Record<string, string> = {
      date: new Date(Math.floor((nowMs - lag) / 1000) * 1000).toUTCString(),
      'x-ratelimit-limit': String(figures[shown.quota]),
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': resetText(
        shown.t.resetMs + (options.resetLateMs ?? 0) + (options.resetReadLateMs?.(n) ?? 0),
        options.fractionalReset,
        options.resetRoundedDown,
        options.resetNoiseUs?.(n),
      ),
      'content-type': 'application/json',
    };
    if (options.headers !== 'binding' && options.headers.joined) {
      const each = (name: string, value: (x: (typeof steps)[number]) => string | number): void =>
        void (headers[name] = steps.map((x) => String(value(x))).join(', '));
      each('x-ratelimit-limit', (x) => figures[x.quota]);
      each('x-ratelimit-remaining', (x) => x.t.remaining);
      each('x-ratelimit-reset', (x) => resetText(x.t.resetMs, options.fractionalReset, options.resetRoundedDown));
    }
    const utcDate = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toUTCString().replace('GMT', 'UTC');
    if (options.datedUtc) headers['x-ratelimit-reset'] = utcDate(shown.t.resetMs);
    if (refused && options.slowapiHeadersAfterMs !== undefined) {
      const at = nowMs + options.slowapiHeadersAfterMs;
      if (!f.noRetryAfter)
        headers['retry-after'] = String(Math.trunc((shown.t.resetMs + (options.resetLateMs ?? 0) - at) / 1000));
      return { status: 429, headers, body: '{"error":"Rate limit exceeded"}' };
    }
    if (refused) {
      const waitMs = options.retryAfterWindow
        ? refused.quota === 'minute'
          ? options.windows.minuteMs
          : options.windows.dayMs
        : refused.t.retryMs - nowMs;
      const retryAfter = options.decimalRetryAfter
        ? String(waitMs / 1000)
        : String(Math.max(1, Math.ceil(waitMs / 1000)));
      if (!f.noRetryAfter) headers['retry-after'] = options.datedUtc ? utcDate(refused.t.resetMs) : retryAfter;
      return { status: 429, headers, body: '{"code":"RATE_LIMITED","message":"Too many requests","status":429}' };
    }
    return { status: 200, headers, body: '[]' };
  };
}
