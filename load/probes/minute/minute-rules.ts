// The minute probe's rules (minute.ts records the observation): the exact count, Remaining, the 429's
// Retry-After, the recovery after it, the next window's whole allowance, and the model (OBSERVE). Each
// rule's guard names the stage of the observation it needs; a stage the probe never reached makes the
// rule unjudged with the cut's reason (findings.ts `missing`). In the order the report lists them.
import { verdict, type Unjudged, type Verdict } from '../../../report/check.ts';
import { admittedWithin } from '../day-rolling.ts';
import type { ProbeScope } from '../context.ts';
import { PROBE_CHECKS } from '../checks.ts';
import { requestsWithinWindow } from './refusal-window.ts';
import { refusalOutsideEveryReading } from '../models/readings.ts';
import { failure, missing, notReached, rule, silent, UNEXPLAINED, unreached, type ProbeRule } from '../findings.ts';
import { DAY_OUT_FIX, dayOwned } from '../day-out.ts';
import {
  applicable,
  remainingAtRefusal,
  remainingBefore429,
  remainingCeiling,
  remainingCountdown,
  retryAfterAccurate,
  retryAfterConsistent,
  retryAfterForm,
  retryAfterPresent,
} from '../judge.ts';
import { nextWindowByCount, type MinuteObservation, type NextWindowCount } from './minute.ts';
import type { ModelVerdict } from '../models/minute-count.ts';
import { allowanceFor } from '../models/allowance.ts';
import { fixedRuleSkip, isFixed, modelFix, shownNotFixed, untold } from '../models/unknown.ts';
import { localSpan, type Observation } from '../observe.ts';
import {
  minuteResets,
  namesOneEnd,
  overWindowText,
  ownEndCrossed,
  readingFor,
  refillCounts,
  type OwnEndCrossed,
} from '../reading.ts';
import type { Retried } from './backoff.ts';
import { heldAcrossEnd, ROOMY_WINDOW_S, type WindowCount } from '../window.ts';

type Minute = MinuteObservation;

const SLOW_FIX = 'a longer minute window (plans file: windows.minuteSeconds) or a target closer to petcert';
const NO_429: Unjudged = {
  reason: 'no 429 was obtained (the minute quota over-admitted, or refilled as fast as the count drained it)',
  fix: `a limiter that refuses past the plan's minute figure (quota.minute.exact shows how many it admitted), or ${SLOW_FIX}`,
};
const RECOVERY_FIX = 'a Retry-After that covers the time until the key is admitted again';
const NO_RETRY_AFTER: Unjudged = {
  reason:
    "the minute quota's 429 carries no Retry-After (quota.retry-after.present fails it): its accuracy cannot be read",
  fix: 'send Retry-After on every 429 (§8.3)',
};
const TOO_SLOW: Unjudged = {
  reason: 'the window ended twice before the count did: the target is too slow for this window length',
  fix: SLOW_FIX,
};

/** The probe's stages in order; the first one missing is where its evidence stops. */
const COUNT = "the count of a full minute allowance to the minute quota's 429";
const RECOVERY = "the wait for the 429's Retry-After and the retry after it";
const MODEL = "the limiter's model, told from the count and the recovery";
const EXACT = 'the exact count of a full minute allowance';
const NEXT = 'the count of the window after the 429';

/** Why the probe ended before its count: cut short, or the target too slow for the window (isolation rides on it). */
export const minuteEnded = (o: Minute): Unjudged | undefined => o.cut ?? (o.tooSlow ? TOO_SLOW : undefined);

/** Why a stage is missing without a cut: the count never finished (too slow), else nothing petcert recorded. */
const minuteWhy = (o: Minute): Unjudged => (o.tooSlow ? TOO_SLOW : UNEXPLAINED);
const at = (o: Minute, stage: string): Verdict => missing(o, stage, minuteWhy(o));

/** Why a check of the minute probe no rule spoke about was not judged: no 429, or the first stage missing. */
function minuteGap(o: Minute): Unjudged {
  if (o.count && !o.count.rejected && o.exact) return NO_429;
  const stage = !o.count
    ? COUNT
    : o.count.rejected && !o.retried
      ? RECOVERY
      : !o.model
        ? MODEL
        : !o.exact
          ? EXACT
          : undefined;
  if (stage) return notReached(o, stage, minuteWhy(o));
  if (o.count?.rejected && !o.count.rejected.retryAfter) return NO_RETRY_AFTER;
  return {
    reason:
      "the minute probe's answers carried none of the headers this check reads (X-RateLimit-* of the minute quota, Retry-After on its 429)",
    fix: 'send X-RateLimit-* of the minute quota on its answers and Retry-After on its 429 (§8.2, §8.3)',
  };
}

/** Rules on the 429: unjudged when there was none (once the probe knew it), or when it never got there. */
function needs429(o: Minute): Verdict | undefined {
  // A probe cut after its count (at the wait its 429 asked for) still judges that 429.
  if (!o.count || (!o.exact && !o.cut)) return at(o, !o.count ? COUNT : EXACT);
  return o.count.rejected ? undefined : verdict.unjudgedBy(NO_429);
}

/** Rules on the recovery after the 429: they were judged once the model was known. */
function needsRecovery(o: Minute): Verdict | undefined {
  if (o.count && !o.count.rejected) return o.exact ? verdict.unjudgedBy(NO_429) : at(o, EXACT);
  return o.count && o.retried && o.model ? undefined : at(o, !o.count ? COUNT : !o.retried ? RECOVERY : MODEL);
}

/** Fixed windows: exactly the plan's figure. Other models: at least it, at most what they refill over the count. */
/**
 * The count the exact rule judges: the one the probe settled on, or, when the probe was cut before (the
 * hold refused the wait its 429 asked for), the first count under no model: its figure still shows an
 * allowance short of the plan under every reading, and one over it is left unjudged.
 */
const exactOf = (o: Minute): { count: WindowCount; model: ModelVerdict } =>
  o.exact ?? {
    count: o.count!,
    model: {
      model: 'unknown',
      why: `the probe stopped before the model was told (${o.cut?.reason ?? 'no recovery'})`,
      ...(o.cut?.fix ? { fix: o.cut.fix } : {}),
    },
  };

/** A first count the cut probe left: judged unless it fell short of a start its headers did not show whole (a counter's weight). */
function shortShownFull(scope: ProbeScope, count: WindowCount): boolean {
  const first = count.admitted[0];
  const whole = first?.quota === 'minute' && first.rate !== undefined && first.rate.remaining === first.rate.limit - 1;
  return count.admitted.length >= scope.k.plan.perMinute || whole;
}

/**
 * Under the window reading, a count of a limiter not shown fixed whose answers show it crossed the limiter's
 * own window end (reading.ts ownEndCrossed): a sliding window counter keeps its allowance across its own
 * windows (spec/GAPS.md "Readings"), whichever model the Resets' noise told.
 */
function crossedOwnEnd(o: Minute, count: WindowCount, model: ModelVerdict, spanMs: number): OwnEndCrossed | undefined {
  const windowMs = o.scope.ctx.windows.minuteSeconds * 1000;
  if (o.scope.ctx.declared !== undefined || isFixed(model) || spanMs >= windowMs) return undefined;
  const answers = minuteResets(count.admitted);
  return answers && ownEndCrossed(answers, o.scope.k.plan.perMinute, windowMs, spanMs);
}

/** Most fixed windows at a phase nobody placed admit over a span: the figure in each window the span touches. */
const acrossEnds = (figure: number, spanMs: number, windowMs: number): number =>
  figure * (Math.ceil(spanMs / windowMs) + 1);

/**
 * A count told fixed by its own evidence (its answers do not all report the minute quota, so no Reset ties them to
 * one window) that took a window's length or more: a fixed window's end may fall among its requests, and the
 * windows they touch admit up to the figure each. Unjudged there; a count past that is still failed.
 */
function straddledUntied(
  count: WindowCount,
  model: ModelVerdict,
  spanMs: number,
  windowMs: number,
  perMinute: number,
): Verdict | undefined {
  if (!isFixed(model) || spanMs < windowMs || count.admitted.every((a) => a.quota === 'minute')) return undefined;
  const n = count.admitted.length;
  if (n > acrossEnds(perMinute, spanMs, windowMs)) return undefined;
  return verdict.unjudged(
    `${n} admitted from a full minute allowance, the plan allows ${perMinute}, but over ${Math.round(spanMs)} ms, ` +
      `longer than one ${windowMs / 1000} s window, and their headers report another quota: a fixed window's end may fall among them`,
    SLOW_FIX,
  );
}

/**
 * No answer of the count carries readable X-RateLimit-* (quota.headers.valid judges them): nothing declares where
 * its fixed windows end, so at any phase the windows its span touches admit the figure each. Unjudged up to that;
 * past it, no reading admits the count.
 */
function unplacedCount(count: WindowCount, spanMs: number, windowMs: number, perMinute: number): Verdict | undefined {
  const answers = [...count.admitted, ...(count.rejected ? [count.rejected] : [])];
  const n = count.admitted.length;
  if (answers.some((a) => a.rate !== undefined) || n > acrossEnds(perMinute, spanMs, windowMs)) return undefined;
  return verdict.unjudged(
    `${n} admitted from a full minute allowance within ${Math.round(spanMs)} ms, the plan allows ${perMinute}, and no answer ` +
      'of the count carried readable X-RateLimit-*: nothing declares where its windows end, and a fixed window at any phase ' +
      'admits the figure on each side of one',
    'X-RateLimit-* on every answer, Reset a Unix time (§8.2)',
  );
}

/**
 * A count above the figure that the 429 hold released late, across an end its Reset names to a second
 * (window.ts heldAcrossEnd), and still so once counted again (minute.ts recountIfDoubtful): with answers that report
 * another quota, no Reset ties them to one window: up to the figure in each window the span touches. Unjudged there.
 */
function heldUntied(count: WindowCount, spanMs: number, windowMs: number, perMinute: number): Verdict | undefined {
  if (!heldAcrossEnd(count, windowMs)) return undefined;
  const heldMs = count.admitted[0]!.ex.heldMs ?? 0;
  const n = count.admitted.length;
  if (n > acrossEnds(perMinute, spanMs, windowMs)) return undefined;
  return verdict.unjudged(
    `${n} admitted from a full minute allowance, the plan allows ${perMinute}, but the count's first request left when ` +
      `the 429 hold released it, ${(heldMs / 1000).toFixed(1)} s after it was sent, and their headers report another ` +
      "quota: a fixed window's end may fall among them",
    `a minute window of ${ROOMY_WINDOW_S} s or more (plans file: windows.minuteSeconds): the count then starts a window later`,
  );
}

function exact(o: Minute): Verdict {
  const { count, model } = exactOf(o);
  const { perMinute } = o.scope.k.plan;
  const n = count.admitted.length;
  const last = count.admitted[n - 1] ?? count.rejected;
  // To the last answer of any admitted request, not of the one last in the server's order: one answered later
  // in the same wave may have reached the server later, and the bucket refilled until then (observe.ts localSpan).
  const spanMs = localSpan(count.admitted);
  const { minuteSeconds } = o.scope.ctx.windows;
  const { declared } = o.scope.ctx;
  const oneEnd = namesOneEnd(count.admitted, perMinute, minuteSeconds * 1000);
  const most = perMinute + allowanceFor(model, perMinute, minuteSeconds * 1000, spanMs, declared, oneEnd);
  // Told by the count's own evidence where the headers did not show it (minute.ts bucketOrFixed): say which.
  const told = o.model && model !== o.model ? ` (${model.why})` : '';
  const refill =
    most === perMinute ? '' : `, and a ${model.model} limiter at most ${most} over these ${Math.round(spanMs)} ms`;
  const plan = `the plan allows ${perMinute}${refill}${told}`;
  const crossed = crossedOwnEnd(o, count, model, spanMs);
  // The count stops past the figure plus a bucket's refill (window.ts `over`): the floor's one more is within it here.
  if (crossed && n <= crossed.most) return verdict.pass;
  const straddle =
    straddledUntied(count, model, spanMs, minuteSeconds * 1000, perMinute) ??
    heldUntied(count, spanMs, minuteSeconds * 1000, perMinute);
  if (!count.over && n > most && straddle) return straddle;
  // A declared bucket has no window ends: it is judged as one.
  const unplaced =
    n > most && declared === undefined ? unplacedCount(count, spanMs, minuteSeconds * 1000, perMinute) : undefined;
  if (unplaced) return unplaced;
  if (count.over || n > most) {
    // Past the figure within one window's length is what the window reading forbids: say what a bucket gives there.
    const proved =
      declared === undefined && !isFixed(model) && spanMs < minuteSeconds * 1000
        ? overWindowText(n, spanMs, perMinute, minuteSeconds, 'minute')
        : `${n} requests admitted from a full minute allowance; ${plan}${n > perMinute ? `; ${readingFor(declared, perMinute)}` : ''}`;
    return failure(proved, { exchange: last?.ex, expected: perMinute, received: n });
  }
  if (count.capped) {
    const why = `${n} requests admitted and no 429 before the count's backstop (${plan}): a limiter refilling as fast as the waves drained it`;
    return verdict.unjudged(
      why,
      'a minute window longer against the round trip (the target nearer, or windows less compressed)',
    );
  }
  // The model still unknown (minute.ts bucketOrFixed): a bucket's refill and a fixed window's over-admission alike.
  if (n > perMinute && untold(model) && refillCounts(declared, 'unknown', minuteSeconds * 1000, spanMs)) {
    return verdict.unjudged(
      `${n} admitted from a full minute allowance, the plan allows ${perMinute}: ${model.why}`,
      modelFix(model),
    );
  }
  if (n >= perMinute) return verdict.pass;
  // Only a 429 the day owns (day-out.ts): one reporting the minute quota is the minute's, whatever its Retry-After.
  if (count.rejected && dayOwned(o.scope, count.rejected)) {
    return verdict.unjudged(
      `429 after ${n} of ${perMinute} admitted, then a 429 the day quota owns: the day quota ran out`,
      DAY_OUT_FIX,
    );
  }
  return failure(`429 after only ${n} admitted from a full minute allowance; the plan allows ${perMinute}`, {
    exchange: count.rejected?.ex,
    expected: perMinute,
    received: n,
  });
}

/** The recovery's tries, or the Verdict standing for them when the day's end was not waited (day-out.ts). */
const triesOf = (o: Minute): Retried | Verdict => {
  const r = o.retried!;
  return 'unwaited' in r ? verdict.unjudgedBy(r.unwaited) : r;
};

function recovery(o: Minute): Verdict {
  const retried = triesOf(o);
  if ('kind' in retried) return retried;
  if (retried.admitted && retried.refusals.length === 0) return verdict.pass;
  const message = retried.admitted
    ? `429 again after waiting Retry-After (${o.count!.rejected!.retryAfter?.raw ?? 'absent'}); admitted only after ${retried.refusals.length} backoff tries`
    : `still 429 after waiting Retry-After and ${retried.refusals.length} tries with exponential backoff; gave up to spare the key`;
  // Failed on the refusal no reading allows (the last try comes a whole window after the count's last admission).
  const allowed = retried.refusals.map((r) => rollingAllows(o, r, message));
  const outside = allowed.findIndex((v) => v === undefined);
  return outside === -1 ? allowed[0]! : failure(message, { exchange: retried.refusals[outside]!.ex });
}

/**
 * A refusal after Retry-After. Fewer than the figure of the key's requests within a window's length before it
 * (our clock, refusal-window.ts) is outside every reading: undefined. From a limiter not shown to keep fixed
 * windows, the rolling reading (at most the figure in any span of a window's length) allows it while the figure
 * was admitted in that span, counted generously (each answer's time ± the Date slack): unjudged then, with what
 * the evidence shows. A fixed window's refusal past the reset it declared: undefined.
 */
function rollingAllows(o: Minute, refusal: Observation, message: string): Verdict | undefined {
  const { perMinute } = o.scope.k.plan;
  const windowMs = o.scope.ctx.windows.minuteSeconds * 1000;
  const within = o.sent && requestsWithinWindow(o.sent, refusal, windowMs);
  const outside = within !== undefined && refusalOutsideEveryReading(perMinute, within, windowMs / 1000) !== undefined;
  if (isFixed(o.model) || !o.samples || outside) return undefined;
  const admitted = admittedWithin(o.samples, refusal.serverMs, windowMs);
  if (admitted < perMinute) return undefined;
  const why =
    `${message}, but ${admitted} of this key's requests were admitted within a window's length (${windowMs / 1000} s) before that refusal: a ` +
    `rolling window (or a counter weighing the last window) refuses it, and the limiter was not shown to keep fixed windows`;
  return verdict.unjudged(
    why,
    "a Retry-After that covers the time until the key is admitted again; the limiter's model told by the minute probe (quota.model)",
  );
}

/**
 * After the reset the 429 named, the next request reports a later Reset (a minute one, when both are); the same one
 * only where the model is not fixed windows.
 */
function resetMoved(o: Minute): readonly Verdict[] {
  const rej = o.count!.rejected!;
  const retried = triesOf(o);
  if ('kind' in retried || !retried.admitted || retried.refusals.length > 0) return silent;
  const admitted = retried.admitted;
  if (
    rej.quota !== 'minute' ||
    !rej.rate ||
    admitted.quota !== 'minute' ||
    !admitted.rate ||
    admitted.rate.reset > rej.rate.reset ||
    // A log's next Reset is its next-oldest request's expiry, which a whole-second Reset may name as the same second.
    (admitted.rate.reset === rej.rate.reset && !isFixed(o.model))
  )
    return silent;
  return [
    failure(`after the reset at ${rej.rate.reset} the next request still reports Reset ${admitted.rate.reset}`, {
      exchange: admitted.ex,
    }),
  ];
}

/**
 * The window after the 429 refused, of the minute quota, with fewer than the figure of the key's requests
 * within a window's length before the refusal: outside every reading (refusal-window.ts), whatever the model.
 */
function refusedEarly(
  scope: ProbeScope,
  { admitted, last }: NextWindowCount,
  sent: readonly Observation[],
): Verdict | undefined {
  const { perMinute } = scope.k.plan;
  const { minuteSeconds } = scope.ctx.windows;
  if (last.status !== 429 || dayOwned(scope, last)) return undefined;
  const within = requestsWithinWindow(sent, last, minuteSeconds * 1000);
  const outside = within === undefined ? undefined : refusalOutsideEveryReading(perMinute, within, minuteSeconds);
  if (outside === undefined) return undefined;
  return failure(
    `the window after the 429 admitted ${admitted} of ${perMinute}, then a 429 of the minute quota, though at most ${within} of this key's ` +
      `requests (admitted or refused) can have reached the server within ${minuteSeconds} s before it: ${outside}`,
    { exchange: last.ex, expected: perMinute, received: admitted },
  );
}

/**
 * The whole allowance admitted proves the 429 did not shrink it; fewer, with the model unknown, cannot
 * tell a 429 charged to it from a counter's carried weight (unjudged).
 */
function nextByCount(scope: ProbeScope, { admitted, last }: NextWindowCount, model: ModelVerdict): Verdict {
  const { perMinute } = scope.k.plan;
  if (admitted >= perMinute) return verdict.pass;
  // Shown no fixed window by the Resets of its 429s (minute.ts notFixed): this fixed-window rule does not bind it.
  if (shownNotFixed(model)) return fixedRuleSkip(model);
  if (isFixed(model) && last.status === 429 && !dayOwned(scope, last)) {
    return failure(
      `the window after a 429 admitted ${admitted} of ${perMinute}, then a 429 of the minute quota: the 429 was charged to the next window`,
      { exchange: last.ex, expected: perMinute, received: admitted },
    );
  }
  const dayOut = !last.admitted && dayOwned(scope, last);
  const why = last.admitted
    ? 'the window ended first (a slow target)'
    : dayOut
      ? 'then the day quota ran out'
      : `then a ${last.status}`;
  const reason =
    `the window after the 429 admitted ${admitted} of ${perMinute} (${why}); its headers report the day quota, so the limiter's model is ` +
    `unknown and a 429 charged to it cannot be told from a counter's carried weight`;
  // The day's answers showed too little left only at the recovery (before it, the minute's): recountInFreshDay could not see it coming.
  return verdict.unjudged(reason, dayOut ? DAY_OUT_FIX : modelFix(model));
}

function nextWindow(o: Minute): Verdict {
  const r = o.retried!;
  if ('unwaited' in r) return verdict.unjudged(`no recovery was waited: ${r.unwaited.reason}`, r.unwaited.fix);
  const retried = r;
  const model = o.model!;
  const admitted = retried.admitted;
  if (!admitted)
    return verdict.unjudged(
      "no request was admitted after the wait for the 429's Retry-After (quota.recovery judges the refusals)",
      RECOVERY_FIX,
    );
  if (retried.refusals.length > 0)
    return verdict.unjudged(
      "the first request after the wait for the 429's Retry-After was refused (quota.recovery judges it), so the window after it was not fresh",
      RECOVERY_FIX,
    );
  // Whatever the model: a rule of every reading, not only of fixed windows.
  const early = o.next && o.sent && refusedEarly(o.scope, o.next, o.sent);
  if (early) return early;
  if (shownNotFixed(model)) return fixedRuleSkip(model);
  if (nextWindowByCount(retried, model))
    return o.next ? nextByCount(o.scope, o.next, o.notFixed ?? model) : at(o, NEXT);
  const rate = admitted.rate!;
  if (rate.remaining === rate.limit - 1) return verdict.pass;
  // A 429 charged to this window lowers its Remaining; Remaining ≥ Limit is the header's own fault
  // (quota.headers.remaining fails it) and tells nothing of the window's allowance.
  if (rate.remaining >= rate.limit) {
    return verdict.unjudged(
      `the first request of the window after a 429 reports Remaining ${rate.remaining} of a Limit of ${rate.limit} (quota.headers.remaining): its headers ` +
        `cannot show whether the 429 shrank the window`,
      'a server whose Remaining counts the request it answers',
    );
  }
  // What the evidence proves, not a cause: a limiter charging its 429s to this window and one still weighing
  // the last window's count (a sliding window counter) both show it.
  const refused = o.samples?.filter((x) => x.status === 429 && x.reset === o.count!.rejected!.rate?.reset).length ?? 1;
  const proved = `the window its Reset (${rate.reset}) declares began ${rate.limit - 1 - rate.remaining} short of its allowance`;
  return failure(
    `the first request after the Reset the last window declared reports Remaining ${rate.remaining} of ${rate.limit}, expected ${rate.limit - 1}: ${proved} ` +
      `(the last window refused ${refused} of this key's requests)`,
    {
      exchange: admitted.ex,
      expected: rate.limit - 1,
      received: rate.remaining,
    },
  );
}

/** The last admitted answer of the count and its 429: the pair §8.2's "currently applicable" speaks of. */
const pair = (count: WindowCount): [Observation | undefined, Observation] => [
  count.admitted[count.admitted.length - 1],
  count.rejected!,
];

/**
 * Retry-After is judged on a minute 429: the recount's when the count's was the day quota's. With only a
 * day quota's 429 (the day not waited out), by what §8 states of any 429, within the day's window: held
 * to the minute window's end, a correct day's Retry-After read as a fault.
 */
function minute429(o: Minute): { o: Observation; judge: (x: Observation) => readonly Verdict[] } {
  const counts = [o.exact?.count ?? o.count!, o.count!];
  const minute = counts.find((c) => c.rejected && !dayOwned(o.scope, c.rejected));
  const { minuteSeconds, daySeconds } = o.scope.ctx.windows;
  if (!minute) return { o: counts[0]!.rejected!, judge: (x) => retryAfterConsistent(o.scope, x, daySeconds) };
  if (isFixed(o.model))
    return { o: minute.rejected!, judge: (x) => retryAfterAccurate(x, minute.endMs, minuteSeconds) };
  return { o: minute.rejected!, judge: (x) => retryAfterConsistent(o.scope, x, minuteSeconds) };
}

export const MINUTE_RULES: readonly ProbeRule<Minute>[] = [
  rule('remaining', (o) => (o.count?.rejected ? remainingBefore429(...pair(o.count)) : silent)),
  rule('applicable', (o) => (o.count?.rejected ? applicable(...pair(o.count)) : silent)),
  rule(
    'model',
    (o) => verdict.observed(o.model),
    (o) => (o.model ? undefined : at(o, !o.count ? COUNT : MODEL)),
  ),
  rule('recovery', recovery, needsRecovery),
  rule('nextWindow', nextWindow, needsRecovery),
  rule('reset', (o) => (needsRecovery(o) ? silent : resetMoved(o))),
  rule('minuteExact', exact, (o) => {
    if (o.tooSlow) return verdict.unjudgedBy(TOO_SLOW);
    if (o.exact) return undefined;
    return o.cut && o.count && shortShownFull(o.scope, o.count) ? undefined : at(o, !o.count ? COUNT : EXACT);
  }),
  rule('remaining', (o) => (o.exact && o.count && o.model ? remainingCountdown(o.scope, o.count, o.model) : silent)),
  rule('remaining', (o) => (o.exact && o.count ? remainingAtRefusal(o.count) : silent)),
  rule('remaining', (o) => (o.exact && o.answers ? remainingCeiling(o.scope, o.answers, !isFixed(o.model)) : silent)),
  rule('retryAfterPresent', (o) => retryAfterPresent(minute429(o).o), needs429),
  rule('retryAfterForm', (o) => (needs429(o) ? silent : retryAfterForm(minute429(o).o))),
  rule(
    'retryAfterAccurate',
    (o) => {
      const { o: refusal, judge } = minute429(o);
      return judge(refusal);
    },
    needs429,
  ),
  ...unreached(PROBE_CHECKS.minute, minuteGap),
];
