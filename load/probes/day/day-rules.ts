// The day probe's rules (day.ts records the observation): the day's exact count, its 429's Retry-After,
// which quota the headers report (OBSERVE), whether 429s count against the day (OBSERVE), and what the
// day's answers show of §8.2. Each rule reads the path the probe took — a limiter that is not a fixed
// window (day-sliding.ts), the tally when the day refused (day-tally.ts), or a fresh day counted — and
// a check the path gives no evidence for is unjudged with that path's own reason and fix (`dayGap`).
import { verdict, type Unjudged, type Verdict } from '../../../report/check.ts';
import type { DayObservation, DaySearch } from './day.ts';
import type { ProbeScope } from '../context.ts';
import { countedDayEnd, openedByOurEarlierAnswers } from './day-edge.ts';
import { minuteResetContradicts, retryAfterBeyondDay, untoldDay } from '../day-refusal.ts';
import { slidingExact, slidingGiveUp, type SlidingDay } from './day-sliding.ts';
import {
  refillMayExplain,
  tallyConsume,
  tallyExact,
  tallyLastRemaining,
  tallyRetryAfter,
  type Settled,
  type TallyInput,
} from './day-tally.ts';
import { PROBE_CHECKS } from '../checks.ts';
import { failure, missing, notReached, rule, silent, UNEXPLAINED, unreached, type ProbeRule } from '../findings.ts';
import {
  applicable,
  remainingBefore429,
  retryAfterAccurate,
  retryAfterConsistent,
  retryAfterForm,
  retryAfterPresent,
} from '../judge.ts';
import { resetEndMs, type Observation } from '../observe.ts';
import type { ModelVerdict } from '../models/minute-count.ts';
import { fixedRuleSkip, modelFix, untold } from '../models/unknown.ts';
import { readingFor } from '../reading.ts';
import { rollingDayRefusal } from '../day-rolling.ts';

type Day = DayObservation;

const SLOW_FIX = 'a longer day window (plans file: windows.daySeconds) or a target closer to petcert';
const CANNOT_BIND = 'the day quota cannot bind when paced at the minute limit';

/** Every day rule: not applicable when the day quota cannot bind at the minute pace. */
const binds = (o: Day): Verdict | undefined => (o.cannotBind ? verdict.notApplicable(CANNOT_BIND) : undefined);

/**
 * The model is unknown and the day's answers (or the counted day's first) do not show a fixed day. `model`: what
 * the minute probe told (undefined: it did not run), which decides what would tell the model.
 */
const unknownModel = (why: string, model: ModelVerdict | undefined): Verdict =>
  verdict.unjudged(`the limiter's model is unknown and ${why}`, modelFix(model));

const END_UNKNOWN_FIX =
  "a day-quota 429 whose Retry-After (or X-RateLimit-Reset) names the day window's end, within one day window";
const SEARCH = "the search for the day quota's 429 (requests paced at the minute limit)";
const FRESH_DAY = 'the count of a fresh day window';

/**
 * Why the day's 429 pinned down no day window. Its X-RateLimit-Reset naming no instant within the window (a
 * count of seconds to go, say) is quota.headers.reset's finding: the Retry-After beside it says when to come
 * back, not where the day began, so the day the count ran in is not shown.
 */
function endUnknown(o: Day, final: Observation): Unjudged {
  const reset = final.rate?.reset;
  if (final.quota !== 'day' || reset === undefined || resetEndMs(o.scope, final) !== undefined)
    return {
      reason: "the day quota's 429 does not say when the day window ends within one day window",
      fix: END_UNKNOWN_FIX,
    };
  const retry = final.retryAfter
    ? `; its Retry-After (${final.retryAfter.raw}) says when to come back, not where the day began`
    : '';
  return {
    reason:
      `the day quota's 429 reports X-RateLimit-Reset ${reset}, no instant within the day window (quota.headers.reset)${retry}: ` +
      'no day window is pinned down to count in',
    fix: "an X-RateLimit-Reset that is the Unix time (s) of the day window's end (§8.2)",
  };
}

/** The model a day that is not a fixed window's is judged by: the minute probe's, or the one its own Resets show. */
const notFixedModel = (o: Day): ModelVerdict => o.dayModel ?? o.model!;

type Found = Extract<DaySearch, { kind: 'found' }>;

/**
 * The path the day probe took (day.ts `probeDay`), decided once for every rule: a limiter that is not a
 * fixed window; a search that found no day end; a day not shown fixed; the tally that settled it; or a
 * fresh day counted (with why it may not have started whole). `missing`: no stage was reached.
 */
type DayPath =
  | { kind: 'missing' }
  | { kind: 'sliding'; d: SlidingDay }
  | { kind: 'unfound'; s: Exclude<DaySearch, Found> }
  | { kind: 'fixed-unshown'; why: string; found: Found }
  | { kind: 'tally'; input: TallyInput; t: Settled }
  | { kind: 'counted'; c: Counted; notFull?: string };

type Counted = NonNullable<Day['count']>;

/**
 * A fresh fixed day starts with the whole allowance. When the count's first answer reports the day quota
 * with less, either someone else used the key or the limiter carries the last day over (a counter): not a
 * verdict the count can give.
 */
function dayNotFull(scope: ProbeScope, first: Observation | undefined): string | undefined {
  if (!first?.rate || first.quota !== 'day' || first.rate.remaining >= scope.k.plan.perDay - 1) return undefined;
  return (
    `the day window counted did not start with the whole allowance (its first answer reports Remaining ${first.rate.remaining} of ` +
    `${scope.k.plan.perDay}): another client, or a limiter that carries the last day over`
  );
}

function pathOf(o: Day): DayPath {
  const s = o.search;
  if (o.sliding) return { kind: 'sliding', d: o.sliding };
  if (!s) return { kind: 'missing' };
  if (s.kind !== 'found') return { kind: 'unfound', s };
  if (o.fixedUnshown) return { kind: 'fixed-unshown', why: o.fixedUnshown, found: s };
  if (o.tally && o.settled) return { kind: 'tally', input: o.tally, t: o.settled };
  if (!o.count) return { kind: 'missing' };
  const unknown = untold(o.model);
  return { kind: 'counted', c: o.count, notFull: unknown ? dayNotFull(o.scope, o.count.first) : undefined };
}

/**
 * Why the path the day probe took gives a check no evidence (no rule of it spoke): the stage it never
 * reached, the day 429 it never got, or the over-admission that left no day window keeping its quota.
 */
function dayGap(o: Day): Unjudged {
  const p = pathOf(o);
  const { perDay } = o.scope.k.plan;
  const no429 = (what: string, fix: string): Unjudged => ({
    reason: `${what}: there is no day-quota 429 of a day window that kept its quota to read`,
    fix,
  });
  switch (p.kind) {
    case 'missing':
      return notReached(o, o.search ? FRESH_DAY : SEARCH, UNEXPLAINED);
    case 'sliding':
      if (p.d.kind === 'gave-up') {
        const paced = `${p.d.own.length} requests admitted over ${Math.round(p.d.spanMs / 1000)} s at the minute pace`;
        return untoldDay(o.examined, paced) ?? no429(`${paced} without a day-quota 429`, SLOW_FIX);
      }
      return p.d.kind === 'end-unknown'
        ? {
            reason: "the day quota's 429 does not say when one more request fits within one day window",
            fix: END_UNKNOWN_FIX,
          }
        : NO_DAY_EVIDENCE;
    case 'unfound':
      if (p.s.kind === 'end-unknown') return endUnknown(o, p.s.final);
      if (p.s.kind === 'too-slow')
        return no429(
          `at the pace this target allows (${Math.round(p.s.perDayAtPace)} admitted per day window) the day quota of ${perDay} cannot be reached`,
          SLOW_FIX,
        );
      const paced = `${p.s.admitted} requests admitted over ${Math.round(p.s.spanMs / 1000)} s at the minute pace`;
      return (
        untoldDay(o.examined, paced) ??
        no429(`${paced} without a day-quota 429 (plan: ${perDay} per day)`, DAY_QUOTA_FIX)
      );
    case 'tally':
      return 'over' in p.t
        ? no429(`the day window admitted ${p.t.over} requests, more than the plan's ${perDay}`, DAY_QUOTA_FIX)
        : NO_DAY_EVIDENCE;
    case 'counted':
      return p.c.final
        ? NO_DAY_EVIDENCE
        : no429(
            `the fresh day window's count admitted ${p.c.admitted} and ended without a day-quota 429`,
            p.c.late ? SLOW_FIX : DAY_QUOTA_FIX,
          );
    case 'fixed-unshown':
      return NO_DAY_EVIDENCE;
  }
}

const ROLLING_FIX =
  "day answers that show the day's model: a fixed day's first answer reports Remaining perDay − 1, a rolling one's what is left";
const DAY_QUOTA_FIX = "a day quota that refuses past the plan's day figure (quota.day.exact judges it)";
const NO_DAY_EVIDENCE: Unjudged = {
  reason: "no answer of the day probe was of the kind this check reads (a day-quota 429 with the day quota's headers)",
  fix: "send X-RateLimit-* of the day quota, and Retry-After, on the day quota's 429",
};

/** The model is unknown and the day's answers do not show a fixed day window. */
const unshownFixedDay = (why: string, model: ModelVerdict | undefined): Verdict =>
  unknownModel(`the day quota's answers do not show a fixed day window: ${why}`, model);

function countedExact(o: Day, c: Counted): Verdict {
  const { perDay } = o.scope.k.plan;
  // Admissions answered near or after the counted window's end may be the next day window's: only those surely
  // within it are held to the figure.
  const inWindow = c.admitted - (c.pastEnd ?? 0);
  if (!c.final && c.pastEnd && c.admitted > perDay && inWindow <= perDay) {
    return verdict.unjudged(
      `the count ran to the day window's end: ${inWindow} of its ${c.admitted} admissions surely fell within it, the plan ` +
        `allows ${perDay}: the target is too slow to count one day window`,
      SLOW_FIX,
    );
  }
  if (!c.final && c.admitted <= perDay && c.late) {
    return verdict.unjudged(
      `the count reached ${c.admitted} of ${perDay} by the end of the day window: the target is too slow to count one day window`,
      SLOW_FIX,
    );
  }
  // A bucket's day, its model unknown, is full again at the end its 429 named and refills during the count:
  // more than perDay in the counted day, or no day 429 in it, is then no proof of an unenforced day.
  const unknown = untold(o.model);
  if (!c.final) {
    return (
      refillMayExplain(o.scope, c.admitted, unknown, modelFix(o.model)) ??
      failure(
        `${c.admitted} requests admitted within one day window without a day-quota 429; the plan allows ` +
          `${perDay}${unknown ? `; ${readingFor(o.scope.ctx.declared, perDay)}` : ''}`,
        {
          expected: perDay,
          received: c.admitted,
        },
      )
    );
  }
  const consumes = c.rejected > 0 && c.admitted === perDay - c.rejected;
  // Short of perDay (or of it less the counted 429s) by no more than our own earlier answers that may have
  // opened this day (day-edge.ts): what the server counted cannot be told from a correct count.
  const found = o.search?.kind === 'found' ? o.search.final : undefined;
  const early =
    c.admitted < perDay && found ? openedByOurEarlierAnswers(o.scope, c.samples, found, c.first, o.model) : 0;
  const within = (counted: number): boolean => counted <= perDay && perDay <= counted + early;
  if (c.admitted === perDay || consumes || within(c.admitted) || (c.rejected > 0 && within(c.admitted + c.rejected)))
    return verdict.pass;
  const rolling = c.admitted < perDay ? rollingDayRefusal(o.scope, c) : undefined;
  if (rolling) {
    return verdict.unjudged(
      `${c.admitted} requests admitted in the day window the minute count's model implies before the day 429, but ${rolling}`,
      ROLLING_FIX,
    );
  }
  return failure(`${c.admitted} requests admitted in one day window before the day 429; the plan allows ${perDay}`, {
    exchange: c.final.ex,
    expected: perDay,
    received: c.admitted,
  });
}

function unfoundExact(o: Day, s: Exclude<DaySearch, Found>): Verdict {
  const { perDay, perMinute } = o.scope.k.plan;
  if (s.kind === 'end-unknown') return verdict.unjudgedBy(endUnknown(o, s.final));
  if (s.kind === 'too-slow') {
    return verdict.unjudged(
      `at the pace this target allows (${Math.round(s.perDayAtPace)} admitted per ${o.scope.ctx.windows.daySeconds} s) the day quota of ${perDay} cannot be ` +
        `reached within one day window`,
      SLOW_FIX,
    );
  }
  const paced = `paced at ${perMinute} per minute window, ${s.admitted} requests were admitted over ${Math.round(s.spanMs / 1000)} s`;
  const untold = untoldDay(o.examined, `${paced} (plan: ${perDay} per day)`);
  if (untold) return verdict.unjudgedBy(untold);
  return failure(`${paced} without a day-quota 429 (plan: ${perDay} per day)`, {
    exchange: s.last.ex,
    expected: perDay,
    received: s.admitted,
  });
}

function slidingDayExact(o: Day, d: SlidingDay): Verdict {
  if (d.kind === 'end-unknown')
    return verdict.unjudged(
      "the day quota's 429 does not say when one more request fits within one day window",
      END_UNKNOWN_FIX,
    );
  return d.kind === 'refused'
    ? slidingExact(o.scope, d, notFixedModel(o))
    : slidingGiveUp(o.scope, d, notFixedModel(o), o.examined);
}

function dayExact(o: Day): Verdict {
  const p = pathOf(o);
  switch (p.kind) {
    case 'missing':
      return missing(o, o.search ? FRESH_DAY : SEARCH, UNEXPLAINED);
    case 'sliding':
      return slidingDayExact(o, p.d);
    case 'unfound':
      return unfoundExact(o, p.s);
    case 'fixed-unshown':
      return unshownFixedDay(p.why, o.model);
    case 'tally':
      return tallyExact(p.input, p.t);
    case 'counted':
      return p.notFull ? unknownModel(p.notFull, o.model) : countedExact(o, p.c);
  }
}

/** The day 429's Retry-After: present, then pointing at the day's end (or consistent, for other models). */
function dayRetryAfter(o: Day): readonly Verdict[] {
  const p = pathOf(o);
  switch (p.kind) {
    case 'missing':
      return silent;
    case 'sliding': {
      const { d } = p;
      if (d.kind === 'refused')
        return [retryAfterPresent(d.final), ...retryAfterConsistent(o.scope, d.final, o.scope.ctx.windows.daySeconds)];
      return d.kind === 'end-unknown' ? retryAfterBeyondDay(o.scope, d.final) : silent;
    }
    case 'unfound':
      return p.s.kind === 'end-unknown' ? retryAfterBeyondDay(o.scope, p.s.final) : silent;
    case 'fixed-unshown':
      return [unshownFixedDay(p.why, o.model)];
    case 'tally':
      return 'over' in p.t ? silent : tallyRetryAfter(p.input);
    case 'counted': {
      const { c, notFull } = p;
      if (notFull) return [unknownModel(notFull, o.model)];
      // A rolling day's 429 promises no fixed end: its Retry-After is judged as any limiter's.
      if (c.final && rollingDayRefusal(o.scope, c))
        return [retryAfterPresent(c.final), ...retryAfterConsistent(o.scope, c.final, o.scope.ctx.windows.daySeconds)];
      return c.final
        ? [
            retryAfterPresent(c.final),
            ...retryAfterAccurate(
              c.final,
              countedDayEnd(o.scope, c.start, c.final, c.first, o.model),
              o.scope.ctx.windows.daySeconds,
            ),
          ]
        : silent;
    }
  }
}

/** The day 429 whose Retry-After form §8.3 judges, where the day probe judged it. */
function formed(o: Day): Observation | undefined {
  const p = pathOf(o);
  if (p.kind === 'sliding') return p.d.kind === 'refused' ? p.d.final : undefined;
  if (p.kind === 'tally')
    return 'over' in p.t || p.input.final.quota !== 'day' || !p.input.final.rate ? undefined : p.input.final;
  return p.kind === 'counted' && !p.notFull ? p.c.final : undefined;
}

function dayHeaders(o: Day): readonly Verdict[] {
  const p = pathOf(o);
  switch (p.kind) {
    case 'missing':
    case 'unfound':
      return silent;
    case 'sliding':
      return p.d.kind === 'refused' ? [verdict.observed({ on429: p.d.final.quota })] : silent;
    case 'fixed-unshown':
      return [verdict.observed({ on429: p.found.final.quota })];
    case 'tally':
      return 'over' in p.t ? silent : [verdict.observed({ on429: p.input.final.quota })];
    case 'counted': {
      const { reported, final } = p.c;
      return [
        verdict.observed({
          beforeDayBinds: [...reported.dayNotBinding],
          whileDayBinds: [...reported.dayBinding],
          on429: final?.quota,
        }),
      ];
    }
  }
}

function rejectedConsume(o: Day): readonly Verdict[] {
  const p = pathOf(o);
  switch (p.kind) {
    case 'missing':
    case 'unfound':
      return silent;
    case 'sliding':
      return p.d.kind === 'refused' ? [fixedRuleSkip(notFixedModel(o))] : silent;
    case 'fixed-unshown':
      return [unshownFixedDay(p.why, o.model)];
    case 'tally':
      return 'over' in p.t ? silent : [tallyConsume(p.input, p.t)];
    case 'counted': {
      const { c, notFull } = p;
      if (notFull) return [unknownModel(notFull, o.model)];
      if (!c.final) return silent;
      if (c.rejected === 0)
        return [
          verdict.unjudged(
            "no 429 of the minute quota fell in this day window before the day's 429 (the count sends one past a minute window's figure)",
            'a minute quota that refuses the request past its figure (quota.minute.exact judges it)',
          ),
        ];
      const consumes = c.admitted === o.scope.k.plan.perDay - c.rejected;
      return [verdict.observed({ consumesDayQuota: consumes, admittedInDay: c.admitted, rejectedInDay: c.rejected })];
    }
  }
}

/** Consecutive answers of the search for the day's end (the server's order). */
const pairs = (o: Day): Array<[Observation | undefined, Observation]> =>
  o.searched.map((x, i) => [o.searched[i - 1], x]);

/** The tally's samples, when the probe took that path past a fixed-looking day. */
const lastRemainingOf = (o: Day): readonly Verdict[] => (o.tally ? tallyLastRemaining(o.tally) : silent);

export const DAY_RULES: readonly ProbeRule<Day>[] = [
  // Checks of other probes, judged on what the day saw (silent when it saw nothing of them).
  rule('remaining', (o) => pairs(o).flatMap(([prev, x]) => remainingBefore429(prev, x))),
  rule('applicable', (o) => pairs(o).flatMap(([prev, x]) => applicable(prev, x))),
  rule('retryAfterAccurate', (o) => o.examined.flatMap((x) => minuteResetContradicts(o.scope, x))),
  rule('remaining', lastRemainingOf),
  rule('dayExact', dayExact, binds),
  rule('dayRetryAfter', dayRetryAfter, binds),
  rule('retryAfterForm', (o) => {
    const final = formed(o);
    return final ? retryAfterForm(final) : silent;
  }),
  rule('dayHeaders', dayHeaders, binds),
  rule('rejectedConsume', rejectedConsume, binds),
  ...unreached(PROBE_CHECKS.day, dayGap),
];
