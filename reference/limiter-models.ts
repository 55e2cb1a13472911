// Limiter models other than fixed windows (variant `limiterModel`). §8 gives quotas per minute and per
// day and a Reset "at which the limit resets"; it does not say the windows are fixed, so each of these is
// a correct server (spec/GAPS.md, "Limiter model"). What each reports:
//   sliding-log      at most N admitted in any trailing window. Admitted: Reset = now + window (moves with
//                    every request); refused: Reset and Retry-After = when enough requests have aged out
//                    for one more to fit.
//   sliding-counter  the previous fixed window's count weighted by its overlap with the trailing window,
//                    plus the current one's (at most N in each fixed window, and the weighted sum < N+1).
//                    Admitted: Reset = the end of the current fixed window; refused: when one more fits.
//   token-bucket     capacity N (the plan's figure: its burst), refilled at N per window (its rate).
//                    Admitted: Reset = when the bucket is full again; refused: when one token is back.
// Remaining is the whole requests that still fit. Each quota is one small record per key, except the
// sliding log, which must remember up to N instants (100,000 for a Business day: fine for a variant).
import type { Plan, Windows } from '../spec/plans.ts';
import type { ReferenceFaults } from './faults.ts';
import type { Decision, Limiter, RateHeaders } from './limiter-types.ts';
import type { LimiterModel, ResolvedVariants } from './variants.ts';

type QuotaKind = 'minute' | 'day';

/** One quota of one key under one model. Times in ms. */
interface Meter {
  /** Requests that still fit now (fractional for counters and buckets). */
  room(nowMs: number): number;
  take(nowMs: number): void;
  /** When everything counted so far no longer counts: the Reset of admitted responses. */
  resetAtMs(nowMs: number): number;
  /** When one more request fits: a refusal's Reset and Retry-After. */
  retryAtMs(nowMs: number): number;
}

/** Float slack: a weighted count of 59.9999999 is 60. */
const EPSILON = 1e-9;

export function slidingLog(cap: number, lengthMs: number): Meter {
  let times: number[] = [];
  let head = 0;
  const expire = (now: number): void => {
    while (head < times.length && times[head]! <= now - lengthMs) head++;
    if (head > 1024 && head * 2 > times.length) {
      times = times.slice(head);
      head = 0;
    }
  };
  return {
    room: (now) => (expire(now), cap - (times.length - head)),
    take: (now) => void times.push(now),
    resetAtMs: (now) => (expire(now), head < times.length ? times[times.length - 1]! + lengthMs : now),
    retryAtMs(now) {
      expire(now);
      // With count ≥ cap admitted in the trailing window, the (count - cap + 1)-th oldest must age out.
      const count = times.length - head;
      return (times[head + Math.max(0, count - cap)] ?? now) + lengthMs;
    },
  };
}

export function slidingCounter(cap: number, lengthMs: number, originMs: number): Meter {
  let win = Number.NEGATIVE_INFINITY;
  let prev = 0;
  let curr = 0;
  const roll = (now: number): number => {
    const w = Math.floor((now - originMs) / lengthMs);
    if (w !== win) {
      prev = w === win + 1 ? curr : 0;
      curr = 0;
      win = w;
    }
    return originMs + w * lengthMs;
  };
  const estimate = (now: number): number => {
    const start = roll(now);
    return prev * (1 - (now - start) / lengthMs) + curr;
  };
  return {
    room: (now) => cap - estimate(now),
    take: (now) => void (roll(now), curr++),
    resetAtMs: (now) => roll(now) + lengthMs,
    retryAtMs(now) {
      const start = roll(now);
      const need = cap - 1; // the estimate must fall to this for one more to fit
      if (curr <= need && prev > 0) {
        const e = lengthMs * (1 - (need - curr) / prev);
        if (e < lengthMs) return start + Math.max(e, now - start);
      }
      // In the next window the current count becomes the weighted one.
      return start + lengthMs + (curr > 0 ? lengthMs * Math.max(0, 1 - need / curr) : 0);
    },
  };
}

/** `cap` tokens at most (the burst); `perWindow` tokens back per window (the rate). */
export function tokenBucket(cap: number, perWindow: number, lengthMs: number): Meter {
  const rate = perWindow / lengthMs;
  let tokens = cap;
  let last: number | undefined;
  const refill = (now: number): void => {
    if (last !== undefined && now > last) tokens = Math.min(cap, tokens + (now - last) * rate);
    last = last === undefined ? now : Math.max(last, now);
  };
  return {
    room: (now) => (refill(now), tokens),
    take: (now) => void (refill(now), (tokens -= 1)),
    resetAtMs: (now) => (refill(now), now + (cap - tokens) / rate),
    retryAtMs: (now) => (refill(now), now + Math.max(0, 1 - tokens) / rate),
  };
}

function meterFor(
  model: Exclude<LimiterModel, 'fixed'>,
  cap: number,
  limit: number,
  lengthMs: number,
  originMs: number,
): Meter {
  if (model === 'sliding-log') return slidingLog(cap, lengthMs);
  if (model === 'sliding-counter') return slidingCounter(cap, lengthMs, originMs);
  return tokenBucket(cap, limit, lengthMs);
}

interface QuotaState {
  kind: QuotaKind;
  limit: number;
  /** Whole requests the faults let through beyond the limit (overAdmit). */
  extra: number;
  meter: Meter;
}

export function createModelLimiter(windows: Windows, faults: ReferenceFaults, variants: ResolvedVariants): Limiter {
  const model = variants.limiterModel;
  if (model === 'fixed') throw new Error('createModelLimiter: fixed windows live in limiter.ts');
  const buckets = new Map<string, QuotaState[]>();
  const kinds = (['minute', 'day'] as const).filter(
    (k) => !(k === 'minute' ? faults.noMinuteQuota : faults.noDayQuota),
  );
  const lengthMs = (kind: QuotaKind): number => (kind === 'minute' ? windows.minuteSeconds : windows.daySeconds) * 1000;

  function stateOf(bucket: string, plan: Plan): QuotaState[] {
    let state = buckets.get(bucket);
    if (!state) {
      state = kinds.map((kind) => {
        const limit = kind === 'minute' ? plan.perMinute : plan.perDay;
        const extra = kind === 'minute' ? (faults.overAdmit ?? 0) : 0; // fault: overAdmit
        return {
          kind,
          limit,
          extra,
          meter: meterFor(
            model as Exclude<LimiterModel, 'fixed'>,
            limit + extra,
            limit,
            lengthMs(kind),
            windows.originMs ?? 0,
          ),
        };
      });
      buckets.set(bucket, state);
    }
    return state;
  }

  const remainingOf = (q: QuotaState, now: number): number =>
    Math.max(0, Math.floor(q.meter.room(now) - q.extra + EPSILON));

  function headers(q: QuotaState, admitted: boolean, now: number): RateHeaders {
    const remaining = faults.remainingStuck ? q.limit : admitted ? remainingOf(q, now) : 0; // fault: remainingStuck
    let reset = Math.ceil((admitted ? q.meter.resetAtMs(now) : q.meter.retryAtMs(now)) / 1000);
    if (faults.resetMillis)
      reset *= 1000; // fault: resetMillis
    else if (faults.resetDelta) reset -= Math.floor(now / 1000); // fault: resetDelta
    return { limit: q.limit + (faults.limitHeaderOffset ?? 0), remaining, reset }; // fault: limitHeaderOffset
  }

  function reported(all: QuotaState[], admitted: boolean, blocked: QuotaState[], now: number): QuotaState {
    // The binding quota on a refusal: the one that lets the next request through last.
    if (!admitted) return blocked.reduce((a, b) => (b.meter.retryAtMs(now) > a.meter.retryAtMs(now) ? b : a));
    const preferred = variants.headerQuota === 'closest' ? undefined : all.find((q) => q.kind === variants.headerQuota);
    if (preferred) return preferred;
    return all.reduce((a, b) => {
      const ra = remainingOf(a, now);
      const rb = remainingOf(b, now);
      return rb < ra || (rb === ra && b.meter.resetAtMs(now) < a.meter.resetAtMs(now)) ? b : a;
    });
  }

  function decide(bucket: string, plan: Plan, now: number, commit: boolean, force: boolean): Decision {
    const all = stateOf(bucket, plan);
    if (all.length === 0)
      return { admitted: true, headers: { limit: plan.perMinute, remaining: plan.perMinute, reset: 0 } };
    const blocked = all.filter((q) => q.meter.room(now) < 1 - EPSILON);
    const admitted = force || blocked.length === 0;
    if (commit && (admitted || variants.rejectedConsume)) for (const q of all) q.meter.take(now);
    const binding = reported(all, admitted, blocked, now);
    const decision: Decision = { admitted, headers: headers(binding, admitted, now) };
    if (!admitted) decision.retryAtMs = binding.meter.retryAtMs(now);
    return decision;
  }

  return {
    take: (bucket, plan, now, force = false) => decide(bucket, plan, now, true, force),
    peek: (bucket, plan, now) => decide(bucket, plan, now, false, false),
    size: () => buckets.size,
  };
}
