// The day probe's rules (day.ts records the observation): the day's exact count, its 429's Retry-After,
// which quota the headers report (OBSERVE), whether 429s count against the day (OBSERVE), and what the
// day's answers show of §8.2. Each rule reads the path the probe took — a limiter that is not a fixed
// window (day-sliding.ts), the tally when the day refused (day-tally.ts), or a fresh day counted — and
// a stage never reached makes it unjudged with the cut's reason (findings.ts `missing`).
import { verdict, type Verdict } from '../../report/check.ts';
import { lastRemaining, dayNotFull, type DayObservation } from './day.ts';
import { countedDayEnd, openedByOurEarlierAnswers } from './day-edge.ts';
import { minuteResetContradicts, retryAfterBeyondDay } from './day-refusal.ts';
import { slidingExact, slidingGiveUp } from './day-sliding.ts';
import { refillMayExplain, settleByTally, tallyConsume, tallyExact, tallyRetryAfter, type Settled } from './day-tally.ts';
import { failure, missing, rule, silent, type ProbeRule } from './findings.ts';
import { applicable, notFixed, remainingBefore429, retryAfterAccurate, retryAfterConsistent, retryAfterForm, retryAfterPresent } from './judge.ts';
import type { Observation } from './observe.ts';
import type { ModelVerdict } from './model.ts';

type Day = DayObservation;

const SLOW_FIX = 'a longer day window (plans file: windows.daySeconds) or a target closer to petcert';
const CANNOT_BIND = 'the day quota cannot bind when paced at the minute limit';

/** Every day rule: not applicable when the day quota cannot bind at the minute pace. */
const binds = (o: Day): Verdict | undefined => (o.cannotBind ? verdict.notApplicable(CANNOT_BIND) : undefined);

/** The model is unknown and the day's answers (or the counted day's first) do not show a fixed day. */
const unknownModel = (why: string): Verdict => verdict.unjudged(`the limiter's model is unknown and ${why}`);
const notFixedDay = (o: Day): Verdict => unknownModel(`the day quota's answers do not show a fixed day window: ${o.notFixed}`);

/** The model a day that is not a fixed window's is judged by: the minute probe's, or the one its own Resets show. */
const notFixedModel = (o: Day): ModelVerdict => o.dayModel ?? o.model!;

const settled = (o: Day): Settled | undefined => (o.tally ? settleByTally(o.tally) : undefined);

/** The counted day's first answer shows a day that did not start whole (model unknown): why. */
function notFull(o: Day): string | undefined {
  const unknown = o.model === undefined || o.model.model === 'unknown';
  return unknown ? dayNotFull(o.scope, o.count!.first) : undefined;
}

const countedExact = (o: Day): Verdict => {
  const c = o.count!;
  const { perDay } = o.scope.k.plan;
  const why = notFull(o);
  if (why) return unknownModel(why);
  if (!c.final && c.admitted <= perDay && c.late) {
    return verdict.unjudged(`the count reached ${c.admitted} of ${perDay} by the end of the day window: the target is too slow to count one day window`, SLOW_FIX);
  }
  // A bucket's day, its model unknown, is full again at the end its 429 named and refills during the count
  // (a false FAIL: '101 requests admitted within one day window without a day-quota 429', token bucket, --only day).
  const unknown = o.model === undefined || o.model.model === 'unknown';
  if (!c.final) {
    return refillMayExplain(perDay, c.admitted, unknown)
      ?? failure(`${c.admitted} requests admitted within one day window without a day-quota 429; the plan allows ${perDay}`, {
        expected: perDay, received: c.admitted,
      });
  }
  const consumes = c.rejected > 0 && c.admitted === perDay - c.rejected;
  // Short of perDay (or of it less the counted 429s) by no more than our own earlier answers that may have
  // opened this day (day-edge.ts): what the server counted cannot be told from a correct count.
  const found = o.search?.kind === 'found' ? o.search.final : undefined;
  const early = c.admitted < perDay && found ? openedByOurEarlierAnswers(o.scope, c.samples, found, c.first, o.model) : 0;
  const within = (counted: number): boolean => counted <= perDay && perDay <= counted + early;
  if (c.admitted === perDay || consumes || within(c.admitted) || (c.rejected > 0 && within(c.admitted + c.rejected))) return verdict.pass;
  return failure(`${c.admitted} requests admitted in one day window before the day 429; the plan allows ${perDay}`, { exchange: c.final.ex, expected: perDay, received: c.admitted });
};

function searchExact(o: Day): Verdict {
  const s = o.search;
  const { perDay, perMinute } = o.scope.k.plan;
  if (!s) return missing(o);
  if (s.kind === 'end-unknown') return verdict.unjudged("the day quota's 429 does not say when the day window ends within one day window");
  if (s.kind === 'too-slow') {
    return verdict.unjudged(`at the pace this target allows (${Math.round(s.perDayAtPace)} admitted per ${o.scope.ctx.windows.daySeconds} s) the day quota of ${perDay} cannot be reached within one day window`, SLOW_FIX);
  }
  if (s.kind === 'no-day-429') {
    return failure(`paced at ${perMinute} per minute window, ${s.admitted} requests were admitted over ${Math.round(s.spanMs / 1000)} s without a day-quota 429 (plan: ${perDay} per day)`, {
      exchange: s.last.ex, expected: perDay, received: s.admitted,
    });
  }
  if (o.notFixed) return notFixedDay(o);
  const t = settled(o);
  if (t) return tallyExact(o.tally!, t);
  return o.count ? countedExact(o) : missing(o);
}

function dayExact(o: Day): Verdict {
  const d = o.sliding;
  if (!o.search && !d) return missing(o);
  if (!d) return searchExact(o);
  if (d.kind === 'end-unknown') return verdict.unjudged("the day quota's 429 does not say when one more request fits within one day window");
  return d.kind === 'refused' ? slidingExact(o.scope, d, notFixedModel(o)) : slidingGiveUp(o.scope, d, notFixedModel(o));
}

/** The day 429's Retry-After: present, then pointing at the day's end (or consistent, for other models). */
function dayRetryAfter(o: Day): readonly Verdict[] {
  const d = o.sliding;
  if (d?.kind === 'refused') return [retryAfterPresent(d.final), ...retryAfterConsistent(o.scope, d.final, o.scope.ctx.windows.daySeconds)];
  if (d?.kind === 'end-unknown') return retryAfterBeyondDay(o.scope, d.final);
  if (o.search?.kind === 'end-unknown') return retryAfterBeyondDay(o.scope, o.search.final);
  if (d || o.search?.kind !== 'found') return silent;
  if (o.notFixed) return [notFixedDay(o)];
  const t = settled(o);
  if (t) return 'over' in t ? silent : tallyRetryAfter(o.tally!);
  const c = o.count;
  if (!c) return silent;
  const why = notFull(o);
  if (why) return [unknownModel(why)];
  if (!c.final) return silent;
  return [retryAfterPresent(c.final), ...retryAfterAccurate(c.final, countedDayEnd(o.scope, c.start, c.final, c.first, o.model))];
}

/** The day 429 whose Retry-After form §8.3 judges, where the day probe judged it. */
function formed(o: Day): Observation | undefined {
  if (o.sliding?.kind === 'refused') return o.sliding.final;
  if (o.search?.kind !== 'found' || o.notFixed) return undefined;
  const t = settled(o);
  if (t) return 'over' in t || o.tally!.final.quota !== 'day' || !o.tally!.final.rate ? undefined : o.tally!.final;
  return o.count && !notFull(o) ? o.count.final : undefined;
}

function dayHeaders(o: Day): readonly Verdict[] {
  const d = o.sliding;
  if (d) return d.kind === 'refused' ? [verdict.observed({ on429: d.final.quota })] : silent;
  if (o.search?.kind !== 'found') return silent;
  if (o.notFixed) return [verdict.observed({ on429: o.search.final.quota })];
  const t = settled(o);
  if (t) return 'over' in t ? silent : [verdict.observed({ on429: o.search.final.quota })];
  const c = o.count;
  if (!c) return silent;
  return [verdict.observed({ beforeDayBinds: [...c.reported.dayNotBinding], whileDayBinds: [...c.reported.dayBinding], on429: c.final?.quota })];
}

function rejectedConsume(o: Day): readonly Verdict[] {
  const d = o.sliding;
  if (d) return d.kind === 'refused' ? [notFixed(notFixedModel(o))] : silent;
  if (o.search?.kind !== 'found') return silent;
  if (o.notFixed) return [notFixedDay(o)];
  const t = settled(o);
  if (t) return 'over' in t ? silent : [tallyConsume(t)];
  const c = o.count;
  if (!c) return silent;
  const why = notFull(o);
  if (why) return [unknownModel(why)];
  if (!c.final) return silent;
  if (c.rejected === 0) return [verdict.unjudged('no deliberate 429 was made in this day window')];
  const consumes = c.rejected > 0 && c.admitted === o.scope.k.plan.perDay - c.rejected;
  return [verdict.observed({ consumesDayQuota: consumes, admittedInDay: c.admitted, rejectedInDay: c.rejected })];
}

/** Consecutive answers of the search for the day's end (the server's order). */
const pairs = (o: Day): Array<[Observation | undefined, Observation]> => o.searched.map((x, i) => [o.searched[i - 1], x]);

/** The tally's samples, when the probe took that path past a fixed-looking day. */
const lastRemainingOf = (o: Day): readonly Verdict[] => (o.tally ? lastRemaining(o.tally) : silent);

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
];
