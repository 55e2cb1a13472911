// The day probe for a limiter that is not a fixed window (models/minute-count.ts: sliding log, sliding window counter,
// token bucket): there is no day boundary to wait for. Paced steadily just under the minute rate until
// the day quota refuses, it judges what §8 states of any model: the refusal came only once this key had
// spent the plan's perDay (all its requests in every probe), no more than perDay (plus what a refilling
// model gives back) were admitted within one day of this probe's own requests, and the 429 carries a
// consistent Retry-After. `probeDaySliding` sends and records a SlidingDay; day-rules.ts judges it
// (`slidingExact`, `slidingGiveUp` here).
import { verdict, type Verdict } from '../../../report/check.ts';
import type { Sample } from '../../../report/model.ts';
import { keySamples, spentBefore, serverNow, type ProbeRun, type ProbeScope } from '../context.ts';
import { dayGiveUpMs } from '../waits.ts';
import { dayEndOf, isDay429, untoldDay } from '../day-refusal.ts';
import { failure } from '../findings.ts';
import type { ModelVerdict } from '../models/minute-count.ts';
import { allowance, allowanceFor } from '../models/allowance.ts';
import { traitsOf } from '../models/catalog.ts';
import { declaredWindowsHold } from './declared-windows.ts';
import { overWindowText, readingFor } from '../reading.ts';
import { localSpan, type Observation } from '../observe.ts';
import { waveSource } from '../waves.ts';

/** Paced this much slower than the minute figure: a sliding minute quota never refuses the pacing. */
const PACE_MARGIN = 1.05;

/**
 * Most admitted within less than a day of each other (our clock, so only differences matter), beyond what
 * the model refills over their span. A set is every request sent between two sends, its span from the
 * first send to the LAST ANSWER among them (as observe.ts localSpan): answers of one wave come back in any
 * order, so the latest send's answer need not be the last, and a span to it can be short of what the server
 * may have taken (a correct refilling day's bound would then read one short).
 */
function overDay(
  run: ProbeScope,
  own: readonly Observation[],
  model: ModelVerdict,
  samples: readonly Sample[],
  before: number,
): { count: number; most: number; at: Observation; spanMs: number } | undefined {
  const { perDay } = run.k.plan;
  const dayMs = run.ctx.windows.daySeconds * 1000;
  const sent = [...own].sort((a, b) => a.sentLocal - b.sentLocal);
  const latest: number[] = []; // indices of sent[i..j] whose answer came last, latest first (a monotone queue)
  let i = 0;
  for (let j = 0; j < sent.length; j++) {
    while (latest.length > 0 && sent[latest[latest.length - 1]!]!.receivedLocal <= sent[j]!.receivedLocal) latest.pop();
    latest.push(j);
    const spanOf = (): number => sent[latest[0]!]!.receivedLocal - sent[i]!.sentLocal;
    while (i < j && spanOf() >= dayMs) {
      i++;
      if (latest[0]! < i) latest.shift();
    }
    const count = j - i + 1;
    const most = perDay + allowanceFor(model, perDay, dayMs, spanOf(), run.ctx.declared);
    // Past the rolling reading's figure, but within the fixed windows the day's own Resets declare: allowed.
    const quota = { kind: 'day' as const, figure: perDay, windowMs: dayMs, before };
    if (count > most && !declaredWindowsHold(sent.slice(i, j + 1), samples, quota))
      return { count, most, at: sent[j]!, spanMs: spanOf() };
  }
  return undefined;
}

/**
 * This key's requests the server answered, in every probe: admitted, and refused (some servers count
 * those), and those sent before the probes (identifying the target: `before`, answers unseen).
 */
export function spentByKey(run: ProbeRun, samples: readonly Sample[] = keySamples(run)): Spent {
  return {
    admitted: samples.filter((s) => s.status >= 200 && s.status < 300).length,
    refused: samples.filter((s) => s.status === 429).length,
    before: spentBefore(run),
  };
}

/** This key's requests in all its probes when the day refused (`spentByKey`). */
export interface Spent {
  admitted: number;
  refused: number;
  before: number;
}

/** What the paced run saw: the day 429 (its end known or not), or its span without one. */
export type SlidingDay =
  | { kind: 'refused'; final: Observation; own: readonly Observation[]; spent: Spent; samples: readonly Sample[] }
  | { kind: 'end-unknown'; final: Observation }
  | { kind: 'gave-up'; own: readonly Observation[]; last: Observation; spanMs: number };

/** The day's 429 and the key's every answer so far, read once. */
function refusedAt(run: ProbeRun, final: Observation, own: readonly Observation[]): SlidingDay {
  const samples = keySamples(run);
  return { kind: 'refused', final, own, spent: spentByKey(run, samples), samples };
}

/** The refusal came once this key had spent perDay, and no more than perDay (plus refills) within a day. */
export function slidingExact(
  scope: ProbeScope,
  d: Extract<SlidingDay, { kind: 'refused' }>,
  model: ModelVerdict,
): Verdict {
  const { perDay } = scope.k.plan;
  const over = overDay(scope, d.own, model, d.samples, d.spent.before);
  const { spent, final } = d;
  if (over) {
    const { daySeconds } = scope.ctx.windows;
    const { declared } = scope.ctx;
    const limiter = over.most > perDay ? `, a ${model.model} limiter at most ${over.most}` : '';
    const most =
      declared === undefined
        ? `${limiter}: ${overWindowText(over.count, over.spanMs, perDay, daySeconds, 'day')}`
        : `${limiter}; ${readingFor(declared, perDay)}`;
    return failure(
      `${over.count} requests admitted within one day window (${daySeconds} s); the plan allows ${perDay}${most}`,
      { exchange: over.at.ex, expected: perDay, received: over.count },
    );
  }
  if (spent.admitted + spent.refused - 1 + spent.before >= perDay) return verdict.pass;
  const before = spent.before ? `, ${spent.before} before the probes` : '';
  return failure(
    `the day quota refused after this key had ${spent.admitted} requests admitted (and ${spent.refused - 1} refused${before}) in all; the plan allows ` +
      `${perDay} per day`,
    { exchange: final.ex, expected: perDay, received: spent.admitted },
  );
}

/**
 * No day 429 within the span at our pace. A token bucket's day (perDay, refilled perDay per day) gives
 * back nearly what a pace just above its refill spends: within what it refills over the span it is not
 * shown to be unenforced (unjudged); past it, it is. A log or counter never refills beyond perDay a day:
 * a span of two days or more without a refusal at the minute pace is a fault.
 */
export function slidingGiveUp(
  scope: ProbeScope,
  d: Extract<SlidingDay, { kind: 'gave-up' }>,
  model: ModelVerdict,
  examined: readonly Observation[],
): Verdict {
  const { perMinute, perDay } = scope.k.plan;
  const { own, last, spanMs } = d;
  const dayMs = scope.ctx.windows.daySeconds * 1000;
  // The refill over the admitted requests' own span (first send to last answer), which the server's can only be within.
  const most = perDay + allowance(model.model, perDay, dayMs, localSpan(own));
  const paced = `paced under ${perMinute} per minute window, ${own.length} requests were admitted over ${Math.round(spanMs / 1000)} s`;
  const over = `${paced} without a day-quota 429 (plan: ${perDay} per day)`;
  const refills = traitsOf(model).refillsPastFigure;
  const untold = untoldDay(examined, `${paced} (plan: ${perDay} per day)`);
  if (untold) return verdict.unjudgedBy(untold);
  if (!refills || own.length > most) {
    const bucket = refills ? `; a token-bucket limiter at most ${most}` : '';
    return failure(`${over}${bucket}`, { exchange: last.ex, expected: perDay, received: own.length });
  }
  const why = `${over}: within what a token-bucket day quota refills over that time (${most}), so the pace cannot show whether it is enforced`;
  return verdict.unjudged(why, undecidedFix(scope, own));
}

/**
 * What would decide a refilling day that neither ran dry nor admitted past its refill within the paced span
 * S: a pace P a second with (P - refill) x S > perDay, at which a correct day runs dry (a 429) and an
 * unenforced one admits past perDay + its refill. The minute figure bounds the pace: past it, these figures
 * cannot decide it within the probe's span.
 */
function undecidedFix(scope: ProbeScope, own: readonly Observation[]): string {
  const { perMinute, perDay } = scope.k.plan;
  const { minuteSeconds, daySeconds } = scope.ctx.windows;
  const spanS = dayGiveUpMs(scope.ctx.windows, 'paced') / 1000;
  const refill = perDay / daySeconds;
  const needed = refill + perDay / spanS;
  const most = perMinute / minuteSeconds;
  const kept = own.length > 1 ? `this run kept ${(own.length / (localSpan(own) / 1000)).toFixed(1)}; ` : '';
  if (needed < most / PACE_MARGIN) {
    return (
      `a pace of at least ${needed.toFixed(1)} requests a second (${kept}the minute figure allows ${most.toFixed(1)}): ` +
      "a target closer to petcert, whose answers keep the minute figure's pace"
    );
  }
  const dryS = Math.round(perDay / Math.max(1e-9, most / PACE_MARGIN - refill));
  return (
    `none at these figures within the probe's ${Math.round(spanS)} s: the minute figure's pace runs a day of ${perDay} refilled ` +
    `${refill.toFixed(1)} a second dry only after ${dryS} s (a shorter day window, plans file: windows.daySeconds, or a higher minute figure)`
  );
}

/** Paces until the day 429 (or three days and four minutes: waits.ts DAY_GIVE_UP.paced), recording into `seen.sliding`; every 429 met joins `examined`. */
export async function probeDaySliding(
  run: ProbeRun,
  seen: { sliding?: SlidingDay; examined: Observation[] },
): Promise<void> {
  const { ctx, k } = run;
  const { perMinute, perDay } = k.plan;
  const minuteMs = ctx.windows.minuteSeconds * 1000;
  const gapMs = (minuteMs / perMinute) * PACE_MARGIN;
  const own: Observation[] = [];
  const started = serverNow(ctx);
  // Bounded by time below (DAY_GIVE_UP.paced), and by count here as a backstop.
  const most = Math.ceil(dayGiveUpMs(ctx.windows, 'paced') / gapMs) + 3 * perDay + 10;
  // In waves when the round trip needs it (waves.ts), at the same average pace; read in the server's order.
  const source = waveSource(run, perMinute, () => Number.POSITIVE_INFINITY, { gapMs });
  for (let i = 0; i < most; i++) {
    const o = await source.next();
    if (o.status === 429) seen.examined.push(o);
    if (o.status === 429 && isDay429(run, o, o.serverMs + minuteMs)) {
      seen.sliding = dayEndOf(run, o) === undefined ? { kind: 'end-unknown', final: o } : refusedAt(run, o, own);
      return;
    }
    if (o.admitted) own.push(o);
    if (o.serverMs - started > dayGiveUpMs(ctx.windows, 'paced')) {
      seen.sliding = { kind: 'gave-up', own, last: o, spanMs: o.serverMs - started };
      return;
    }
    if (i % perMinute === 0) {
      const done = Math.min(own.length, perDay - 1);
      ctx.progress({ phase: `quota ${k.plan.name}: day`, done, total: perDay, etaMs: (perDay - done) * gapMs });
    }
  }
}
