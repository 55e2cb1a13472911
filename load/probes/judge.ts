// Pure judges of a counted window and of a 429, shared by the minute and day rule tables: the exact
// count's Remaining counting down, the 429's Retry-After, and §8.2's "currently applicable" headers.
// Each returns the Verdicts of one check (findings.ts records them); none sends or waits.
import { fewest } from '../../core/extent.ts';
import { verdict, type Verdict } from '../../report/check.ts';
import { RATE_LIMIT_HEADERS } from '../../spec/contract.ts';
import type { ProbeScope } from './context.ts';
import { failure, silent } from './findings.ts';
import { type Observation } from './observe.ts';
import {
  DATE_SLACK_MS as SLACK_MS,
  namesDateSecond,
  RESET_ROUNDING_MS,
  retryAfterFormProblem,
} from '../../spec/ratelimit.ts';
import type { WindowCount } from './window.ts';
import type { ModelVerdict } from './models/minute-count.ts';
import { traitsOf } from './models/catalog.ts';
import { remainingCeilingBreach, type Answer } from './remaining-ceiling.ts';

/**
 * Two answers of one quota in flight at once (one wave), from a limiter that refills: the server may have
 * decided either first (our concurrency orders the answers, not the server).
 */
function oneWave(a: Observation, b: Observation, fixed: boolean): boolean {
  return !fixed && a.quota === b.quota && a.sentLocal < b.receivedLocal && b.sentLocal < a.receivedLocal;
}

/**
 * waves.ts serverOrder reads a tied Reset in falling Remaining, but a token bucket or GCRA that refilled
 * between two requests of one wave answered the later one with more: 0 then 2 comes out as 2 then 0. Such a
 * gap (one Reset, one wave) is a refill read the wrong way round only if the refill covers it: the jump from
 * at most b's Remaining (plus a fraction) to a's needed more than a − b refilled between two requests, and
 * the jumps of one wave share what was refilled over its span (first send to last answer), not each the whole.
 */
function refillJumps(fixed: boolean, refillIn: (limit: number, spanMs: number) => number) {
  // The current wave's first send and last answer (observe.ts localSpan, kept as the wave grows).
  let wave: { sent: number; answered: number } | undefined;
  let jumped = 0;
  const widen = (o: Observation): void => {
    wave = {
      sent: Math.min(wave?.sent ?? Infinity, o.sentLocal),
      answered: Math.max(wave?.answered ?? -Infinity, o.receivedLocal),
    };
  };
  return {
    /** Every consecutive pair, in the list's order: keeps the span of the current wave. */
    see(a: Observation, b: Observation): void {
      if (!oneWave(a, b, fixed)) [wave, jumped] = [undefined, 0];
      else {
        if (!wave) widen(a);
        widen(b);
      }
    },
    /** b fell more than one below a: a refill jump read the wrong way round, within the wave's refill. */
    explains(a: Observation, b: Observation): boolean {
      const gap = a.rate!.remaining - b.rate!.remaining;
      if (!wave || a.rate!.reset !== b.rate!.reset || gap < 2) return false;
      jumped += gap;
      return jumped + 1 <= refillIn(a.rate!.limit, wave.answered - wave.sent);
    },
  };
}

/**
 * The admitted answers with each wave whose order rests on whole-second Resets re-read in falling Remaining.
 * A wave: answers in flight at once (each sent before the wave's last answer came; waves.ts awaits a wave whole).
 * Its order is the server's only where its Resets differ by more than their rounding: Math.floor of one window's
 * end reads as two adjacent seconds, so Reset S-1 may have been decided after Reset S. Waves of one quota only.
 */
export function unorderedWavesByRemaining(list: readonly Observation[]): Observation[] {
  const out: Observation[] = [];
  let wave: Observation[] = [];
  const flush = (): void => {
    const rates = wave.map((o) => o.rate);
    const resets = rates.map((r) => Math.round((r?.reset ?? 0) * 1000));
    const oneQuota = wave.every((o) => o.rate && o.quota === wave[0]!.quota && o.quota !== 'unknown');
    const spread = Math.max(...resets) - Math.min(...resets);
    if (wave.length > 1 && oneQuota && spread > 0 && spread <= RESET_ROUNDING_MS)
      wave = [...wave].sort((a, b) => b.rate!.remaining - a.rate!.remaining || a.rate!.reset - b.rate!.reset);
    out.push(...wave);
    wave = [];
  };
  for (const o of list) {
    if (wave.length && o.sentLocal >= Math.max(...wave.map((w) => w.receivedLocal))) flush();
    wave.push(o);
  }
  flush();
  return out;
}

/** One reading of the countdown, pair by pair in the list's order: its first fault, and whether any pair was judged. */
function readCountdown(
  list: readonly Observation[],
  fixed: boolean,
  refillIn: (limit: number, spanMs: number) => number,
  windows: { minuteSeconds: number; daySeconds: number },
): { fault?: Verdict; judged: boolean } {
  const jumps = refillJumps(fixed, refillIn);
  let judged = false;
  for (let i = 1; i < list.length; i++) {
    const a = list[i - 1]!;
    const b = list[i]!;
    jumps.see(a, b);
    if (!a.rate || !b.rate || a.quota !== b.quota || a.quota === 'unknown' || (fixed && a.rate.reset !== b.rate.reset))
      continue;
    // A Reset a whole window later is the next fixed window (its Remaining starts over), whatever the model.
    const length = a.quota === 'day' ? windows.daySeconds : windows.minuteSeconds;
    if (b.rate.reset - a.rate.reset >= length) continue;
    judged = true;
    const refill = refillIn(a.rate.limit, b.receivedLocal - a.sentLocal);
    const fits = b.rate.remaining >= a.rate.remaining - 1 && b.rate.remaining <= a.rate.remaining - 1 + refill;
    if (!fits && !jumps.explains(a, b)) {
      const expected = refill ? `${a.rate.remaining - 1}..${a.rate.remaining - 1 + refill}` : a.rate.remaining - 1;
      const message = `Remaining went from ${a.rate.remaining} to ${b.rate.remaining} across one admitted request (expected ${expected})`;
      return { fault: failure(message, { exchange: b.ex, expected, received: b.rate.remaining }), judged };
    }
  }
  return { judged };
}

/**
 * Remaining counts down from Limit-1, between responses reporting the same quota: by exactly one per
 * admitted request in a fixed window (same Reset); for other models by one, less what they refilled in
 * between (models/allowance.ts). A 429 of the minute quota reports 0.
 */
export function remainingCountdown(scope: ProbeScope, count: WindowCount, model: ModelVerdict): Verdict[] {
  const { windows } = scope.ctx;
  const out: Verdict[] = [];
  const list = count.admitted;
  const first = list[0];
  if (first?.quota === 'minute' && first.rate && first.rate.remaining !== first.rate.limit - 1) {
    out.push(
      failure(
        `the first request of a fresh window reports Remaining ${first.rate.remaining}, expected Limit-1 = ${first.rate.limit - 1}`,
        {
          exchange: first.ex,
          expected: first.rate.limit - 1,
          received: first.rate.remaining,
        },
      ),
    );
  }
  const fixed = !traitsOf(model).remainingMayGrow;
  // What a refilling limiter gave back over a span. Fractional refills add up: the floor of Remaining may
  // come back by one even when less than one was refilled.
  const refillIn = (limit: number, spanMs: number): number =>
    fixed ? 0 : Math.ceil((limit * Math.max(0, spanMs)) / (windows.minuteSeconds * 1000));
  // The first reading: the waves in serverOrder's (waves.ts). A wave whose Resets differ by no more than their
  // whole-second rounding may be ordered by that rounding alone (a Reset rounded down names one window's end as
  // two adjacent seconds): its countdown is read in falling Remaining too, and fails only when both readings do.
  const byReset = readCountdown(list, fixed, refillIn, windows);
  const other = byReset.fault ? unorderedWavesByRemaining(list) : undefined;
  const read = other && !readCountdown(other, fixed, refillIn, windows).fault ? { judged: byReset.judged } : byReset;
  const judged = read.judged;
  if (read.fault) {
    out.push(read.fault);
    return out;
  }
  const rej = count.rejected;
  if (rej?.quota === 'minute' && rej.rate && rej.rate.remaining !== 0) {
    out.push(
      failure(`a 429 of the minute quota reports Remaining ${rej.rate.remaining}`, {
        exchange: rej.ex,
        expected: 0,
        received: rej.rate.remaining,
      }),
    );
  }
  // A pass only where something was judged: with no pair of one quota's answers (a Limit matching neither
  // figure) the countdown was never read.
  if (judged || rej?.quota === 'minute') out.push(verdict.pass);
  else if (out.length === 0) {
    const why =
      "no two consecutive admitted answers of the count report one quota's window: the countdown could not be read";
    out.push(
      verdict.unjudged(
        why,
        "X-RateLimit-Limit of the plan's minute or day figure on every answer (quota.headers.limit judges it)",
      ),
    );
  }
  return out;
}

/**
 * §8.2 against this key's own requests (remaining-ceiling.ts): no admitted answer reports more Remaining
 * than its window leaves after the requests of this key admitted in it, those sent identifying the target
 * included (`answers`: those, then every sample of the key). Fails only: the countdown passes.
 */
export function remainingCeiling(scope: ProbeScope, answers: readonly Answer[], agesOut: boolean): readonly Verdict[] {
  const breach = remainingCeilingBreach(answers, scope.k.plan, scope.ctx.windows, agesOut);
  if (!breach) return silent;
  const window = `the ${breach.quota} window ending ${breach.reset}`;
  const counted = `at least ${breach.counted} of this key's requests were admitted in that window (answers reporting that Limit and Reset)`;
  return [
    failure(
      `an admitted answer of ${window} reports Remaining ${breach.remaining}, but ${counted}: at most ${breach.limit - breach.counted} can remain`,
      {
        expected: `≤ ${breach.limit - breach.counted}`,
        received: breach.remaining,
      },
    ),
  ];
}

/**
 * The fewest Remaining among the count's admitted answers when the count ended in a 429 of the minute
 * quota and every one of them reports the minute quota; undefined otherwise. Whatever the model, the
 * request the server admitted last before that 429 left less than one (a bucket's fraction reads 0): it
 * answered Remaining 0. Read in any order: the answers of the 429's wave admitted before it
 * are in the count (waves.ts serverOrder), and a request of the count that took that last place reports 0.
 */
export function fewestBeforeRefusal(count: WindowCount): number | undefined {
  const rej = count.rejected;
  const minuteOnly = count.admitted.every((o) => o.quota === 'minute' && o.rate);
  if (rej?.quota !== 'minute' || count.admitted.length === 0 || !minuteOnly) return undefined;
  return fewest(count.admitted.map((o) => o.rate!.remaining));
}

/** §8.2: a count refused by the minute quota while all its answers reported Remaining > 0. */
export function remainingAtRefusal(count: WindowCount): readonly Verdict[] {
  const fewest = fewestBeforeRefusal(count);
  if (fewest === undefined || fewest === 0) return silent;
  const why = `the last request it admitted cannot have left ${fewest}`;
  return [
    failure(
      `the minute quota refused while every admitted answer of the count reported at least Remaining ${fewest}: ${why}`,
      {
        exchange: count.rejected!.ex,
        expected: 0,
        received: fewest,
      },
    ),
  ];
}

/** §8.3 rule 2: the 429 carries a Retry-After we can read. */
export function retryAfterPresent(o: Observation): Verdict {
  if (o.retryAfter) return verdict.pass;
  const raw = o.ex.response.headers[RATE_LIMIT_HEADERS.retryAfter];
  return failure(
    raw === undefined
      ? 'the 429 has no Retry-After header'
      : `Retry-After ${JSON.stringify(raw)} is neither delay-seconds nor an HTTP-date`,
    { exchange: o.ex },
  );
}

/** RFC 9110: delay-seconds are digits only, an HTTP-date ends in GMT (judged only when there is a Retry-After to read). */
export function retryAfterForm(o: Observation): readonly Verdict[] {
  if (!o.retryAfter) return silent;
  const problem = retryAfterFormProblem(o.retryAfter);
  return [problem === undefined ? verdict.pass : failure(problem, { exchange: o.ex })];
}

/**
 * What §8 states of any limiter's 429: a Retry-After, not zero while the quota is still spent, and within
 * the refusing quota's window (longer than its own Reset is accepted: a wait longer than needed). Silent
 * without one.
 */
export function retryAfterConsistent(scope: ProbeScope, o: Observation, windowSeconds: number): readonly Verdict[] {
  if (!o.retryAfter) return silent;
  const got = o.retryAfter.seconds;
  const slack = SLACK_MS / 1000;
  // The server decided somewhere between our send and its answer: measured from the send, a slow answer
  // cannot make a correct Retry-After look longer than its Reset.
  const sentServerMs = o.serverMs - (o.receivedLocal - o.sentLocal);
  const toReset = o.rate && o.quota !== 'unknown' ? o.rate.reset - sentServerMs / 1000 : undefined;
  const length = o.quota === 'day' ? scope.ctx.windows.daySeconds : windowSeconds;
  if (got > length + slack) {
    return [
      failure(
        `Retry-After ${o.retryAfter.raw} (${got} s) is longer than the ${length} s window of the quota that refused`,
        { exchange: o.ex, expected: `≤ ${length}`, received: got },
      ),
    ];
  }
  // A date names its second: read as 0 s when the answer came within it (a date rounded down, as Go formats one).
  const withinItsSecond = namesDateSecond(o.retryAfter);
  if (got === 0 && !withinItsSecond && (toReset === undefined || toReset > 0.5)) {
    return [
      failure('Retry-After 0 on a 429 whose quota is still spent', { exchange: o.ex, expected: '≥ 1', received: 0 }),
    ];
  }
  return [verdict.pass];
}

/**
 * Retry-After on a 429 of a quota whose window (`windowSeconds` long) resets at `endMs` (server ms): not
 * before that reset (less the Reset's whole-second rounding and the Date slack), and not beyond the
 * quota's window. Longer than the time to the reset is accepted: the client waits more than it needs
 * (libraries that always answer the window's length), never less. Silent without one.
 */
export function retryAfterAccurate(o: Observation, endMs: number, windowSeconds: number): readonly Verdict[] {
  if (!o.retryAfter) return silent;
  const expected = (endMs - o.serverMs) / 1000;
  const got = o.retryAfter.seconds;
  const slack = SLACK_MS / 1000;
  // `endMs` comes from a Reset, which may read up to RESET_ROUNDING_MS after the true end (rounded up, or
  // slowapi's expiry + 1): a Retry-After that much shorter is the true wait.
  const early = slack + RESET_ROUNDING_MS / 1000;
  if (got < expected - early || got > windowSeconds + slack || (got === 0 && expected > 0.5)) {
    const bound = got > windowSeconds + slack ? `, longer than the quota's ${windowSeconds} s window` : '';
    return [
      failure(`Retry-After ${o.retryAfter.raw} (${got} s) but the quota resets in ${expected.toFixed(1)} s${bound}`, {
        exchange: o.ex,
        expected: `${Math.max(0, Math.ceil(expected - early))}..${windowSeconds}`,
        received: got,
      }),
    ];
  }
  if (o.rate && o.quota !== 'unknown' && o.serverMs / 1000 + got < o.rate.reset - slack - RESET_ROUNDING_MS / 1000) {
    return [
      failure(
        `Retry-After (${got} s) ends before X-RateLimit-Reset ${o.rate.reset}: a client waiting it is refused again`,
        { exchange: o.ex, expected: o.rate.reset, received: Math.round(o.serverMs / 1000 + got) },
      ),
    ];
  }
  return [verdict.pass];
}

/** A pair of answers one after the other (the server's order) that §8.2 "currently applicable" speaks of. */
function applicablePair(
  prev: Observation | undefined,
  o: Observation,
): prev is Observation & { rate: NonNullable<Observation['rate']> } {
  if (!prev?.admitted || !prev.rate || o.status !== 429 || prev.quota === 'unknown' || o.quota === 'unknown')
    return false;
  return o.sentLocal >= prev.receivedLocal; // sent together (a wave): not a client reading the headers first
}

/** §8.2: Remaining > 0 followed by a 429 of the same quota says one more request fitted, whatever the model. */
export function remainingBefore429(prev: Observation | undefined, o: Observation): readonly Verdict[] {
  if (!applicablePair(prev, o) || prev.quota !== o.quota || prev.rate.remaining <= 0) return silent;
  return [
    failure(
      `an admitted answer reported Remaining ${prev.rate.remaining} of the ${prev.quota} quota, and the next request got a 429 of that quota`,
      {
        exchange: o.ex,
        expected: 0,
        received: prev.rate.remaining,
      },
    ),
  ];
}

/**
 * §8.2: X-RateLimit-* describe "the request limit currently applicable". Of the other quota, a SHOULD
 * finding: two independent limiters each writing their own (the day's on a 200, the minute's on its 429)
 * tell a client Remaining 110 and refuse its next request; §8.2 does not say which quota a pair reports.
 */
export function applicable(prev: Observation | undefined, o: Observation): readonly Verdict[] {
  if (!applicablePair(prev, o)) return silent;
  if (prev.quota === o.quota || prev.rate.remaining <= 0) return [verdict.pass];
  return [
    failure(
      `an admitted answer reported the ${prev.quota} quota with Remaining ${prev.rate.remaining}, and the next request got a 429 of the ${o.quota} quota`,
      {
        exchange: o.ex,
        expected: `the ${o.quota} quota's headers (Remaining 0) before its 429`,
        received: `${prev.quota} quota, Remaining ${prev.rate.remaining}`,
      },
    ),
  ];
}
