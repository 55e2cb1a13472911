// The day probe. Paced at the minute limit (never a needless 429), it first learns where the current
// day window ends (from day-quota headers, or from the day 429's Retry-After), waits for it, then counts
// one whole day window: exactly perDay admitted, then a 429 whose Retry-After points at the day's end.
// `probeDay` sends and records a DayObservation; DAY_RULES (day-rules.ts) judge it: no verdict is made here.
import type { ProgressEvent } from '../../../core/progress.ts';
import type { Sample } from '../../../report/model.ts';
import {
  keySamples,
  localPast,
  notWaited,
  scopeOf,
  serverNow,
  sleepUntilServer,
  spentBefore,
  type ProbeRun,
  type ProbeScope,
} from '../context.ts';
import type { Observed } from '../findings.ts';
import { resetEndMs, retryAfterEndMs, type Observation, type QuotaKind } from '../observe.ts';
import { DATE_SLACK_MS as SLACK_MS } from '../../../spec/ratelimit.ts';
import { observe } from '../request.ts';
import { minuteEnd } from '../window.ts';
import { dayEndOf, isDay429 } from '../day-refusal.ts';
import { probeDaySliding, spentByKey, type SlidingDay } from './day-sliding.ts';
import { gaveBackFew, refillingDay } from '../models/day-refill.ts';
import { fixedDayUnshown, type DayEvidence } from '../models/fixed-day.ts';
import { countInto, nextWindow, waveSource, type PacedWindow, type WaveSource } from '../waves.ts';
import type { ModelVerdict } from '../models/minute-count.ts';
import { modelFix, untold } from '../models/unknown.ts';
import { dayPath } from '../models/rules.ts';
import { settleByTally, type Settled, type TallyInput } from './day-tally.ts';
import { dayGiveUpMs } from '../waits.ts';

/** How the search for the day's end (phase A) ended. */
export type DaySearch =
  | { kind: 'found'; endMs: number; final: Observation; own: Observation[] }
  | { kind: 'end-unknown'; final: Observation }
  | { kind: 'too-slow'; perDayAtPace: number }
  | {
      kind: 'no-day-429';
      admitted: number;
      spanMs: number;
      last: Observation;
      own: Observation[];
      dayModel?: ModelVerdict;
    };

/** What the day probe saw, stage by stage; a stage never reached is absent (and `cut` says why, when cut). */
export interface DayObservation extends Observed {
  scope: ProbeScope;
  /** Paced at the minute limit, the day quota cannot bind: the day rules do not apply. */
  cannotBind?: boolean;
  /** The model the minute probe found (undefined: it did not run). */
  model?: ModelVerdict;
  /** Every 429 asked "is this the day's?" (its own minute Reset may contradict its Retry-After). */
  examined: Observation[];
  /** The answers of the search for the day's end, in order (§8.2 "currently applicable" pairs). */
  searched: Observation[];
  /** A limiter that is not a fixed window: the paced run until the day 429 (day-sliding.ts), or a day its Resets show refilling. */
  sliding?: SlidingDay;
  /** The model the minute probe could not tell, as the day's own Resets show it: a refilling day (models/day-refill.ts). */
  dayModel?: ModelVerdict;
  search?: DaySearch;
  /** The model is unknown and the day's answers do not show a fixed day window: why. */
  fixedUnshown?: string;
  /** This key's samples and earlier spending when the day refused: the tally's input. */
  tally?: TallyInput;
  /** What the tally decided (settleByTally), when it decided: no fresh day is counted then. */
  settled?: Settled;
  /** A fresh day window counted from `start` (when the tally could not decide), and this key's samples then. */
  count?: DayCount & { start: number; samples: readonly Sample[] };
}

/** `model`: the key's model as its minute probe told it (none when it did not run). */
export const dayOf = (run: ProbeRun, model: ModelVerdict | undefined): DayObservation => ({
  scope: scopeOf(run),
  model,
  examined: [],
  searched: [],
});

/**
 * Where the current day window ends, by the server's evidence: a day-quota Reset, else its Date floored
 * to the day length from the windows' origin (the hypothesis of epoch-aligned days unless the plan table
 * says where the windows start, as the embedded target's does; GAPS.md: the spec does not say). Only used
 * to decide whether to wait; verdicts never rest on it.
 */
function predictedDayEnd(run: ProbeRun, o: Observation): number | undefined {
  const viaReset = o.quota === 'day' ? resetEndMs(run, o) : undefined;
  if (viaReset !== undefined) return viaReset;
  if (run.ctx.serverClock.toServer(o.receivedLocal) === undefined) return undefined;
  const dayMs = run.ctx.windows.daySeconds * 1000;
  const origin = run.ctx.windows.originMs ?? 0;
  return origin + Math.floor((o.serverMs - origin) / dayMs) * dayMs + dayMs;
}

export const DAY_FIT_MARGIN = 1.1;

/**
 * When the rest of the current day window cannot hold perDay at the minute pace, waiting for the next one
 * costs no quota while pacing through it spends requests that prove nothing. Returns the server ms to
 * wait for, or undefined to start at once.
 */
function shortDayEnd(run: ProbeRun, o: Observation): number | undefined {
  const { perDay, perMinute } = run.k.plan;
  const minuteMs = run.ctx.windows.minuteSeconds * 1000;
  const end = predictedDayEnd(run, o);
  if (end === undefined) return undefined;
  // The count paces at the minute limit, so it needs that many minute windows, and a tenth more: starting
  // a count that runs past the day's end costs a whole second day of requests. (One response's latency
  // is no estimate of the pace: under load a single slow answer made the count look unfittable, so the
  // probe started at once and ran past the day's end.)
  const neededMs = (Math.ceil(perDay / perMinute) + 1) * minuteMs * DAY_FIT_MARGIN;
  return end - o.serverMs < neededMs && neededMs < run.ctx.windows.daySeconds * 1000 ? end : undefined;
}

/**
 * Phase A: paces until the day 429, which tells where the current day window ends (and, with this key's
 * samples, usually settles the count at once: day-tally.ts). Always cheaper than waiting for a fresh day.
 */
async function findDayEnd(run: ProbeRun, seen: DayObservation): Promise<DaySearch | undefined> {
  const { ctx, k } = run;
  const { perMinute, perDay } = k.plan;
  const minuteMs = ctx.windows.minuteSeconds * 1000;
  let started: number | undefined;
  let w: PacedWindow = { admitted: 0 };
  let deliberate = false;
  let asked = false; // whether the day refills (dayModel): asked once, when the search's own span or count runs out
  let dayModel: ModelVerdict | undefined;
  const own: Observation[] = []; // admitted, for a day its Resets show refilling (models/day-refill.ts)
  // The window's requests in waves when the round trip needs it (waves.ts), never past the window's figure
  // (and the one deliberate 429).
  const source = waveSource(run, perMinute, () => perMinute + (deliberate ? 0 : 1) - w.admitted);
  // Backstop only: the span and the admitted count below end the search first (refusals included).
  for (let i = 0; i < 6 * perDay + 10; i++) {
    const o = await source.next();
    seen.searched.push(o);
    w.endMs ??= minuteEnd(run, o) ?? o.serverMs + minuteMs;
    if (o.status === 429) seen.examined.push(o);
    if (o.status === 429 && isDay429(run, o, w.endMs)) {
      const endMs = dayEndOf(run, o);
      return endMs === undefined ? { kind: 'end-unknown', final: o } : { kind: 'found', endMs, final: o, own };
    }
    const skipTo = i === 0 ? shortDayEnd(run, o) : undefined;
    if (skipTo !== undefined) {
      await waitForLongerDay(run, source, o, skipTo);
      w = { admitted: 0 };
      continue;
    }
    started ??= o.serverMs;
    if (o.admitted) own.push(o);
    countInto(w, o);
    if (i % perWindowTick(perMinute) === 0) ctx.progress(findingProgress(run, own.length, minuteMs));
    const span = o.serverMs - started;
    // A day its own Resets already show refilling (model not told) is judged as one (no fresh day is counted
    // after it): its search may take the paced run's span (waits.ts DAY_GIVE_UP.paced), which a pace little
    // above its refill needs to run it dry or to admit past what it can refill.
    const spent = own.length > 3 * perDay || span > dayGiveUpMs(ctx.windows, 'find');
    if (spent && !asked) [asked, dayModel] = [true, bucketDay(run, seen, own)];
    if (dayModel ? span > dayGiveUpMs(ctx.windows, 'paced') : spent) return noDay429(run, own, span, o, dayModel);
    if (o.admitted && w.admitted === perMinute && !deliberate) {
      deliberate = true; // one deliberate 429: tells whether 429s count against the day quota (OBSERVE)
      continue;
    }
    if (o.status === 429 || w.admitted >= perMinute) w = await nextWindow(run, source, w, o.status === 429);
  }
  return undefined;
}

/** The rest of the current day window cannot hold the count (`shortDayEnd`): waits for the next one. */
async function waitForLongerDay(run: ProbeRun, source: WaveSource, o: Observation, skipTo: number): Promise<void> {
  run.ctx.progress({
    phase: `quota ${run.k.plan.name}: day`,
    done: 0,
    total: run.k.plan.perDay,
    etaMs: Math.max(0, skipTo - o.serverMs),
    message: 'waiting for a day window long enough to count',
  });
  source.drop();
  await sleepUntilServer(run.ctx, skipTo, 'the wait for a day window long enough to count');
}

/** No day 429 although a whole day window lay within the span. At our pace, could it have reached perDay? */
function noDay429(
  run: ProbeRun,
  own: Observation[],
  spanMs: number,
  last: Observation,
  dayModel: ModelVerdict | undefined,
): DaySearch {
  const { perDay, perMinute } = run.k.plan;
  const perDayAtPace = (own.length * run.ctx.windows.daySeconds * 1000) / Math.max(1, spanMs);
  if (own.length <= 3 * perDay && perDayAtPace < perDay + perMinute) return { kind: 'too-slow', perDayAtPace };
  return { kind: 'no-day-429', admitted: own.length, spanMs, last, own, dayModel };
}

/** The model is not told, and the day's own Resets show it refilling (models/day-refill.ts): that day's model. */
const bucketDay = (run: ProbeRun, seen: DayObservation, own: readonly Observation[]): ModelVerdict | undefined =>
  untold(seen.model) ? refillingDay(run, own) : undefined;

/**
 * Past perDay admitted without a day 429 the pacing crossed into the next day window (a slow target, or a
 * start late in the day): the phase is not done, so the bar stays short of full and says why.
 */
function findingProgress(run: ProbeRun, total: number, minuteMs: number): ProgressEvent {
  const { perDay, perMinute } = run.k.plan;
  const phase = `quota ${run.k.plan.name}: day`;
  if (total < perDay) return { phase, done: total, total: perDay, etaMs: ((perDay - total) / perMinute) * minuteMs };
  return {
    phase,
    done: perDay - 1,
    total: perDay,
    message: `${total} admitted without a day 429: the count goes on into the next day window`,
  };
}

/** Progress events once per minute window's worth of requests, not per request. */
const perWindowTick = (perMinute: number): number => Math.max(1, perMinute);

export interface DayCount {
  admitted: number;
  /** The day window ended before the count did. */
  late?: boolean;
  /**
   * Admitted answers not surely within the counted day window: answered by the server clock within the Date slack
   * of its end or after it (the count's give-up lies past the end).
   */
  pastEnd?: number;
  /** 429s in the day window before the final one: the deliberate one, and any a minute window gave. */
  rejected: number;
  final?: Observation;
  /** The count's first admitted answer. */
  first?: Observation;
  reported: { dayNotBinding: Set<QuotaKind>; dayBinding: Set<QuotaKind> };
}

/** Phase B: one whole day window from `start`, perMinute per minute window, plus one deliberate 429. */
async function countDay(run: ProbeRun, start: number, examined: Observation[]): Promise<DayCount> {
  const { ctx, k } = run;
  const { perMinute, perDay } = k.plan;
  const minuteMs = ctx.windows.minuteSeconds * 1000;
  const c: DayCount = { admitted: 0, rejected: 0, reported: { dayNotBinding: new Set(), dayBinding: new Set() } };
  const windows = Math.ceil(perDay / perMinute) + 2;
  const dayMs = ctx.windows.daySeconds * 1000;
  const giveUpAt = start + dayGiveUpMs(ctx.windows, 'count'); // waits.ts declares it
  for (let i = 0; i < windows; i++) {
    if (serverNow(ctx) > giveUpAt) return { ...c, late: true };
    const w: PacedWindow & { endMs: number } = { admitted: 0, endMs: start + (i + 1) * minuteMs };
    ctx.progress({
      phase: `quota ${k.plan.name}: day`,
      done: c.admitted,
      total: perDay,
      etaMs: (windows - 2 - i) * minuteMs,
    });
    // Near the day's end, no more at once than the day may have left if 429s count against it (plus the
    // final one): no refusal races the day's 429, so the count is exact whichever the limiter does.
    const source = waveSource(run, perMinute, () =>
      Math.min(perMinute - w.admitted, Math.max(1, perDay + 1 - c.admitted - c.rejected)),
    );
    while (w.admitted < perMinute) {
      if (serverNow(ctx) > giveUpAt) return { ...c, late: true };
      const o = await source.next();
      if (o.admitted) c.first ??= o;
      countInto(w, o);
      if (o.quota === 'minute') w.endMs = resetEndMs(run, o) ?? w.endMs;
      if (o.status === 429) {
        examined.push(o);
        if (isDay429(run, o, w.endMs)) return { ...c, final: o };
        c.rejected++;
        source.drop();
        // The minute window had not rolled over where we thought (it opened at a first request, or its end
        // is rounded): the minute quota is quota.minute.exact's to judge. Wait for the end this 429 names.
        await sleepUntilServer(ctx, minuteEnd(run, o) ?? w.endMs, 'the wait for the minute window a 429 names');
        w.endMs = Math.max(w.endMs, serverNow(ctx) + minuteMs);
        continue;
      }
      c.admitted++;
      if (o.serverMs > start + dayMs - SLACK_MS) c.pastEnd = (c.pastEnd ?? 0) + 1;
      const dayLeft = perDay - c.admitted;
      (dayLeft < perMinute - w.admitted ? c.reported.dayBinding : c.reported.dayNotBinding).add(o.quota);
      if (c.admitted > perDay) return c;
    }
    if (i === 0 && perDay > perMinute) {
      // One deliberate 429 per day window: tells whether 429s count against the day quota (OBSERVE).
      const o = await observe(run);
      if (o.status === 429) c.rejected++;
      else c.admitted++;
    }
    await nextWindow(run, source, w, false);
  }
  return c;
}

/**
 * After waiting out the day's 429 (its Retry-After, else the end it names; within a day window), one
 * request: a fixed day is whole again (Remaining perDay - 1 of the day, or headers of the minute), while a
 * day that refills continuously gives back a few requests and reports the day with little left. The
 * refilling day's model, or undefined. The one day evidence left when the admitted answers show the day
 * in too few answers to see its Reset rise (metered limiters report the quota with fewer left: a token
 * bucket's day only in its last requests) and its 429 names the same Reset or the one token's.
 */
async function gaveBack(run: ProbeRun, seen: DayObservation, final: Observation): Promise<ModelVerdict | undefined> {
  const { perDay } = run.k.plan;
  const endMs = retryAfterEndMs(final) ?? dayEndOf(run, final);
  if (endMs === undefined || endMs - final.serverMs > run.ctx.windows.daySeconds * 1000 + SLACK_MS) return undefined;
  // A wait the run cannot take leaves the day undecided (as without this wait), not the whole probe cut.
  const what = "the wait for the day's 429 to pass";
  const ms = (localPast(run.ctx, endMs) ?? run.ctx.clock.now()) - run.ctx.clock.now();
  if (notWaited(run.ctx, ms, what)) return undefined;
  await sleepUntilServer(run.ctx, endMs, what);
  const o = await observe(run);
  if (o.status === 429) seen.examined.push(o);
  const asked = final.retryAfter ? `Retry-After ${final.retryAfter.raw}` : 'to the end it named';
  return gaveBackFew(o, perDay, asked);
}

/** The day probe into `seen`: the search for the day's end, the tally, and when it cannot decide a fresh day counted. */
export async function probeDay(run: ProbeRun, seen: DayObservation): Promise<void> {
  const { ctx, k } = run;
  const { perMinute, perDay } = k.plan;
  if (perMinute * (ctx.windows.daySeconds / ctx.windows.minuteSeconds) <= perDay) {
    seen.cannotBind = true;
    return;
  }
  const { model } = seen;
  if (dayPath(model) === 'not-fixed') return probeDaySliding(run, seen);
  const found = await findDayEnd(run, seen);
  seen.search = found;
  const unknown = dayPath(model) === 'own-evidence';
  // No day 429 within the span: a day its own Resets show refilling may not have run dry at our pace
  // (perDay plus its refill over the span), judged as a bucket's day that gave up (day-sliding.ts).
  if (found?.kind === 'no-day-429') seen.dayModel = found.dayModel;
  if (found?.kind === 'no-day-429' && seen.dayModel)
    seen.sliding = { kind: 'gave-up', own: found.own, last: found.last, spanMs: found.spanMs };
  if (found?.kind !== 'found') return;
  // The minute probe could not tell the model: the day's own Resets may show it refills (a bucket day),
  // judged as any day that is not a fixed window's.
  seen.dayModel = unknown ? refillingDay(run, found.own, found.final) : undefined;
  const spent = spentByKey(run);
  // The minute count could not tell the model (its headers report the day quota): a day judged as fixed would be a guess.
  const evidence = (): DayEvidence => ({
    samples: keySamples(run),
    spentBefore: spentBefore(run),
    perDay,
    daySeconds: ctx.windows.daySeconds,
  });
  seen.fixedUnshown = unknown && !seen.dayModel ? fixedDayUnshown(evidence(), found.final) : undefined;
  const tally: TallyInput = {
    ...scopeOf(run),
    samples: keySamples(run),
    before: spentBefore(run),
    endMs: found.endMs,
    final: found.final,
    modelUnknown: unknown,
    modelFix: modelFix(model),
  };
  const settled = seen.dayModel || seen.fixedUnshown ? undefined : settleByTally(tally);
  // Left unjudged either way (a day not shown fixed, or more than perDay that a refill may explain): the
  // one request the day gives back after its 429 may show it refills. No fresh day is counted then, so
  // this wait is the one that count's would have been (waits.ts).
  const undecided = seen.fixedUnshown !== undefined || (settled !== undefined && 'over' in settled);
  if (unknown && !seen.dayModel && undecided) seen.dayModel = await gaveBack(run, seen, found.final);
  if (seen.dayModel) {
    seen.fixedUnshown = undefined;
    seen.sliding = { kind: 'refused', final: found.final, own: found.own, spent, samples: keySamples(run) };
    return;
  }
  if (seen.fixedUnshown) return;
  seen.tally = tally;
  seen.settled = settled;
  if (settled) return;
  const start = found.endMs;
  ctx.progress({
    phase: `quota ${k.plan.name}: day`,
    done: 0,
    total: perDay,
    etaMs: Math.max(0, start - serverNow(ctx)),
    message: 'waiting for a fresh day window',
  });
  await sleepUntilServer(ctx, start, 'the wait for a fresh day window');
  const c = await countDay(run, start, seen.examined);
  seen.count = { ...c, start, samples: keySamples(run) };
}
