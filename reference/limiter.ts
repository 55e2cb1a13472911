// §8: per-key minute and day quotas as fixed windows aligned to the Unix epoch (window = floor(t / len)),
// or to `windows.originMs` when given (the embedded target's windows start when it starts), or, variant
// 'first-request', each opened by the key's first counted request after the last one ended (express-rate-limit's
// and rate-limiter-flexible's memory stores: every key's windows start at their own instants). Other limiter
// models (sliding log, sliding window counter, token bucket: variant `limiterModel`) are in limiter-models.ts.
// Synchronous on purpose: check-and-count happens in one turn of the event loop, so concurrent requests
// can never both see the last free slot. State is one small record per bucket (one per configured key),
// holding only the current window of each quota: old windows are overwritten, so memory is bounded.
import type { Plan, Windows } from '../spec/plans.ts';
import type { ReferenceFaults } from './faults.ts';
import type { ResolvedVariants } from './variants.ts';
import { createModelLimiter } from './limiter-models.ts';

type QuotaKind = 'minute' | 'day';

interface Counter {
  window: number;
  /** ms at which the current window started (first-request windows). */
  startMs: number;
  count: number;
  rejected: number;
  /** noRecovery fault: the window in which every request is refused anyway. */
  penaltyWindow: number;
  /** rejectedConsumeNext fault: requests already charged to a future window. */
  debtWindow: number;
  debt: number;
}

interface QuotaView {
  kind: QuotaKind;
  limit: number;
  counter: Counter;
  /** Unix seconds at which the current window ends (rounded up when the origin falls between seconds). */
  reset: number;
  /** ms at which the current window ends. */
  endMs: number;
  blocked: boolean;
}

export type { Decision, Limiter, RateHeaders } from './limiter-types.ts';
import type { Decision, Limiter, RateHeaders } from './limiter-types.ts';

const newCounter = (window: number): Counter => ({
  window,
  startMs: Number.NEGATIVE_INFINITY,
  count: 0,
  rejected: 0,
  penaltyWindow: -1,
  debtWindow: -1,
  debt: 0,
});

function roll(counter: Counter, window: number): void {
  if (counter.window === window) return;
  counter.window = window;
  counter.count = counter.debtWindow === window ? counter.debt : 0;
  counter.rejected = 0;
}

/**
 * A first-request window: the current one while it lasts, else the next one, opened at `nowMs`. Only a
 * counted request opens it (`commit`); a peek sees the window it would open, and changes nothing.
 */
function firstRequestWindow(
  counter: Counter,
  lengthMs: number,
  nowMs: number,
  commit: boolean,
): { window: number; startMs: number } {
  if (nowMs < counter.startMs + lengthMs) return { window: counter.window, startMs: counter.startMs };
  const next = { window: counter.window + 1, startMs: nowMs };
  if (commit) counter.startMs = nowMs;
  return next;
}

export function createLimiter(windows: Windows, faults: ReferenceFaults, variants: ResolvedVariants): Limiter {
  if (variants.limiterModel !== 'fixed' && variants.limiterModel !== 'first-request')
    return createModelLimiter(windows, faults, variants);
  const firstRequest = variants.limiterModel === 'first-request';
  const buckets = new Map<string, Record<QuotaKind, Counter>>();
  const lengths: Record<QuotaKind, number> = { minute: windows.minuteSeconds, day: windows.daySeconds };
  const kinds = (['minute', 'day'] as const).filter(
    (k) => !(k === 'minute' ? faults.noMinuteQuota : faults.noDayQuota),
  );

  function views(bucket: string, plan: Plan, nowMs: number, commit: boolean): QuotaView[] {
    let state = buckets.get(bucket);
    if (!state) buckets.set(bucket, (state = { minute: newCounter(-1), day: newCounter(-1) }));
    const origin = windows.originMs ?? 0;
    const sinceOrigin = (nowMs - origin) / 1000;
    return kinds.map((kind) => {
      const counter = state[kind];
      const lengthMs = lengths[kind] * 1000;
      const opened = firstRequest ? firstRequestWindow(counter, lengthMs, nowMs, commit) : undefined;
      const window = opened?.window ?? Math.floor(sinceOrigin / lengths[kind]);
      // A peek never rolls a first-request counter: the window it sees opens only with a counted request.
      const view =
        opened && !commit && window !== counter.window ? { ...newCounter(window), startMs: opened.startMs } : counter;
      roll(view, window);
      const limit = kind === 'minute' ? plan.perMinute : plan.perDay;
      const cap = limit + (kind === 'minute' ? (faults.overAdmit ?? 0) : 0); // fault: overAdmit
      const blocked = view.count >= cap || (faults.noRecovery === true && view.penaltyWindow === window); // fault: noRecovery
      const endMs = opened ? opened.startMs + lengthMs : origin + (window + 1) * lengthMs;
      return { kind, limit, counter: view, reset: Math.ceil(endMs / 1000), endMs, blocked };
    });
  }

  function reported(all: QuotaView[], admitted: boolean): QuotaView {
    if (!admitted) {
      // The binding quota: the one whose reset lets the next request through (the later of the spent ones).
      return all.filter((q) => q.blocked).reduce((a, b) => (b.reset > a.reset ? b : a));
    }
    const preferred = variants.headerQuota === 'closest' ? undefined : all.find((q) => q.kind === variants.headerQuota);
    if (preferred) return preferred;
    return all.reduce((a, b) => {
      const ra = a.limit - a.counter.count;
      const rb = b.limit - b.counter.count;
      return rb < ra || (rb === ra && b.reset < a.reset) ? b : a;
    });
  }

  function headersOf(q: QuotaView, admitted: boolean, nowMs: number): RateHeaders {
    let remaining = faults.remainingStuck ? q.limit : Math.max(0, q.limit - q.counter.count); // fault: remainingStuck
    if (!admitted && faults.remainingNegative) remaining = -q.counter.rejected; // fault: remainingNegative
    let reset = q.reset;
    if (faults.resetMillis)
      reset = q.reset * 1000; // fault: resetMillis
    else if (faults.resetDelta) reset = q.reset - Math.floor(nowMs / 1000); // fault: resetDelta
    return { limit: q.limit + (faults.limitHeaderOffset ?? 0), remaining, reset }; // fault: limitHeaderOffset
  }

  function decide(bucket: string, plan: Plan, nowMs: number, commit: boolean, force: boolean): Decision {
    const all = views(bucket, plan, nowMs, commit);
    if (all.length === 0)
      return { admitted: true, headers: { limit: plan.perMinute, remaining: plan.perMinute, reset: 0 } };
    const admitted = force || all.every((q) => !q.blocked);
    if (commit) {
      if (admitted || variants.rejectedConsume) for (const q of all) q.counter.count++;
      if (!admitted) chargeRefusal(all);
    }
    const binding = reported(all, admitted);
    const decision: Decision = { admitted, headers: headersOf(binding, admitted, nowMs) };
    if (!admitted) decision.retryAtMs = binding.endMs;
    return decision;
  }

  function chargeRefusal(all: QuotaView[]): void {
    for (const q of all) {
      q.counter.rejected++;
      if (faults.noRecovery && q.blocked && q.counter.penaltyWindow !== q.counter.window)
        q.counter.penaltyWindow = q.counter.window + 1;
      if (faults.rejectedConsumeNext && q.kind === 'minute') {
        const next = q.counter.window + 1;
        if (q.counter.debtWindow !== next) Object.assign(q.counter, { debtWindow: next, debt: 0 });
        q.counter.debt++;
      }
    }
  }

  return {
    take: (bucket, plan, nowMs, force = false) => decide(bucket, plan, nowMs, true, force),
    peek: (bucket, plan, nowMs) => decide(bucket, plan, nowMs, false, false),
    size: () => buckets.size,
  };
}
