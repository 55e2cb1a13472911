// Verdicts on a counted window: the exact count, Remaining counting down, and the 429's Retry-After.
import { RATE_LIMIT_HEADERS } from '../../spec/contract.ts';
import type { CheckKey } from './checks.ts';
import { answersBefore, keySamples, type ProbeRun } from './context.ts';
import { remainingCeilingBreach } from './remaining-ceiling.ts';
import { type Observation } from './observe.ts';
import { DATE_SLACK_MS as SLACK_MS, isRfcRetryAfter, RESET_ROUNDING_MS } from '../../spec/ratelimit.ts';
import type { WindowCount } from './window.ts';
import { isFixed, type ModelVerdict } from './model.ts';

/**
 * Remaining counts down from Limit-1, between responses reporting the same quota: by exactly one per
 * admitted request in a fixed window (same Reset); for other models by one, less what they refilled in
 * between (model.ts allowance). A 429 of the minute quota reports 0.
 */
export function judgeRemaining(run: ProbeRun, count: WindowCount, model: ModelVerdict): void {
  const { f } = run;
  const list = count.admitted;
  const first = list[0];
  if (first?.quota === 'minute' && first.rate && first.rate.remaining !== first.rate.limit - 1) {
    f.fail('remaining', `the first request of a fresh window reports Remaining ${first.rate.remaining}, expected Limit-1 = ${first.rate.limit - 1}`, {
      exchange: first.ex, expected: first.rate.limit - 1, received: first.rate.remaining,
    });
  }
  const fixed = isFixed(model);
  for (let i = 1; i < list.length; i++) {
    const a = list[i - 1]!;
    const b = list[i]!;
    if (!a.rate || !b.rate || a.quota !== b.quota || a.quota === 'unknown' || (fixed && a.rate.reset !== b.rate.reset)) continue;
    // A Reset a whole window later is the next fixed window (its Remaining starts over), whatever the model.
    const length = a.quota === 'day' ? run.ctx.windows.daySeconds : run.ctx.windows.minuteSeconds;
    if (b.rate.reset - a.rate.reset >= length) continue;
    // Fractional refills add up: the floor of Remaining may come back by one even when less than one was refilled.
    const refill = fixed ? 0 : Math.ceil((a.rate.limit * Math.max(0, b.receivedLocal - a.sentLocal)) / (run.ctx.windows.minuteSeconds * 1000));
    if (b.rate.remaining < a.rate.remaining - 1 || b.rate.remaining > a.rate.remaining - 1 + refill) {
      const expected = refill ? `${a.rate.remaining - 1}..${a.rate.remaining - 1 + refill}` : a.rate.remaining - 1;
      f.fail('remaining', `Remaining went from ${a.rate.remaining} to ${b.rate.remaining} across one admitted request (expected ${expected})`, {
        exchange: b.ex, expected, received: b.rate.remaining,
      });
      return;
    }
  }
  const rej = count.rejected;
  if (rej?.quota === 'minute' && rej.rate && rej.rate.remaining !== 0) {
    f.fail('remaining', `a 429 of the minute quota reports Remaining ${rej.rate.remaining}`, { exchange: rej.ex, expected: 0, received: rej.rate.remaining });
  }
  if (list.length > 1 || rej) f.pass('remaining');
}

/**
 * §8.2 against this key's own requests (remaining-ceiling.ts): no admitted answer reports more Remaining
 * than its window leaves after the requests of this key admitted in it, those sent identifying the target
 * included. Fails only: the countdown itself is judgeRemaining's to pass.
 */
export function judgeRemainingCeiling(run: ProbeRun): void {
  const breach = remainingCeilingBreach([...answersBefore(run), ...keySamples(run)], run.k.plan, run.ctx.windows);
  if (!breach) return;
  run.f.fail('remaining', `an admitted answer of the ${breach.quota} window ending ${breach.reset} reports Remaining ${breach.remaining}, but at least ${breach.counted} of this key's requests were admitted in that window (answers reporting that Limit and Reset): at most ${breach.limit - breach.counted} can remain`, {
    expected: `≤ ${breach.limit - breach.counted}`, received: breach.remaining,
  });
}

/** §8.3 rule 2: the 429 carries a Retry-After we can read; false (recorded) when it does not. */
function judgeRetryAfterPresent(run: ProbeRun, o: Observation, key: CheckKey): o is Observation & { retryAfter: NonNullable<Observation['retryAfter']> } {
  if (!o.retryAfter) {
    const raw = o.ex.response.headers[RATE_LIMIT_HEADERS.retryAfter];
    run.f.fail(key, raw === undefined ? 'the 429 has no Retry-After header' : `Retry-After ${JSON.stringify(raw)} is neither delay-seconds nor an HTTP-date`, { exchange: o.ex });
    return false;
  }
  run.f.pass(key);
  if (isRfcRetryAfter(o.retryAfter)) run.f.pass('retryAfterForm');
  else run.f.fail('retryAfterForm', `Retry-After ${JSON.stringify(o.retryAfter.raw)} is a decimal number of seconds, neither delay-seconds (RFC 9110: digits only) nor an HTTP-date; read as ${o.retryAfter.seconds} s`, { exchange: o.ex });
  return true;
}

/**
 * What §8 states of any limiter's 429: a Retry-After, not zero while the quota is still spent, within the
 * refusing quota's window, and no later than the 429's own Reset (+ the Date slack).
 */
export function judgeRetryAfterConsistent(run: ProbeRun, o: Observation, windowSeconds: number, keys: { present: CheckKey; accurate: CheckKey } = { present: 'retryAfterPresent', accurate: 'retryAfterAccurate' }): void {
  const { f } = run;
  if (!judgeRetryAfterPresent(run, o, keys.present)) return;
  const got = o.retryAfter.seconds;
  const slack = SLACK_MS / 1000;
  // The server decided somewhere between our send and its answer: measured from the send, a slow answer
  // cannot make a correct Retry-After look longer than its Reset.
  const sentServerMs = o.serverMs - (o.receivedLocal - o.sentLocal);
  const toReset = o.rate && o.quota !== 'unknown' ? o.rate.reset - sentServerMs / 1000 : undefined;
  const length = o.quota === 'day' ? run.ctx.windows.daySeconds : windowSeconds;
  if (got > length + slack) {
    f.fail(keys.accurate, `Retry-After ${o.retryAfter.raw} (${got} s) is longer than the ${length} s window of the quota that refused`, { exchange: o.ex, expected: `≤ ${length}`, received: got });
  } else if (toReset !== undefined && got > toReset + slack) {
    f.fail(keys.accurate, `Retry-After ${o.retryAfter.raw} (${got} s) reaches past X-RateLimit-Reset ${o.rate!.reset} (${toReset.toFixed(1)} s away)`, { exchange: o.ex, expected: `≤ ${Math.ceil(toReset)}`, received: got });
  } else if (got === 0 && (toReset === undefined || toReset > 0.5)) {
    f.fail(keys.accurate, 'Retry-After 0 on a 429 whose quota is still spent', { exchange: o.ex, expected: '≥ 1', received: 0 });
  } else f.pass(keys.accurate);
}

/** The day quota's 429 has one check for Retry-After, present and accurate alike. */
export const DAY_RETRY_AFTER = { present: 'dayRetryAfter', accurate: 'dayRetryAfter' } as const satisfies { present: CheckKey; accurate: CheckKey };

/** Retry-After on a 429: present, and pointing at `endMs` (server ms), the reset of the refusing quota. */
export function judgeRetryAfter(run: ProbeRun, o: Observation, endMs: number, keys: { present: CheckKey; accurate: CheckKey } = { present: 'retryAfterPresent', accurate: 'retryAfterAccurate' }): void {
  const { f } = run;
  if (!judgeRetryAfterPresent(run, o, keys.present)) return;
  const expected = (endMs - o.serverMs) / 1000;
  const got = o.retryAfter.seconds;
  const slack = SLACK_MS / 1000;
  // `endMs` comes from a Reset, which may read up to RESET_ROUNDING_MS after the true end (rounded up, or
  // slowapi's expiry + 1): a Retry-After that much shorter is the true wait.
  const early = slack + RESET_ROUNDING_MS / 1000;
  if (got < expected - early || got > expected + slack || (got === 0 && expected > 0.5)) {
    f.fail(keys.accurate, `Retry-After ${o.retryAfter.raw} (${got} s) but the quota resets in ${expected.toFixed(1)} s`, {
      exchange: o.ex, expected: Math.ceil(expected), received: got,
    });
    return;
  }
  if (o.rate && o.quota !== 'unknown' && Math.abs(o.rate.reset - (o.serverMs / 1000 + got)) > slack + 1) {
    f.fail(keys.accurate, `Retry-After (${got} s) disagrees with X-RateLimit-Reset ${o.rate.reset}`, { exchange: o.ex, expected: o.rate.reset, received: Math.round(o.serverMs / 1000 + got) });
    return;
  }
  f.pass(keys.accurate);
}

/**
 * §8.2: X-RateLimit-* describe "the request limit currently applicable". `prev` and `o` were sent one
 * after the other (the server's order). Remaining > 0 followed by a 429 of the same quota is a wrong
 * Remaining (MUST, whatever the model: one more request fitted). Of the other quota, a SHOULD finding: two
 * independent limiters each writing their own (the day's on a 200, the minute's on its 429) tell a client
 * Remaining 110 and refuse its next request; §8.2 does not say which quota a pair of quotas reports.
 */
export function judgeApplicable(run: ProbeRun, prev: Observation | undefined, o: Observation): void {
  if (!prev?.admitted || !prev.rate || o.status !== 429 || prev.quota === 'unknown' || o.quota === 'unknown') return;
  if (o.sentLocal < prev.receivedLocal) return; // sent together (a wave): not a client reading the headers first
  if (prev.quota === o.quota && prev.rate.remaining > 0) {
    // §8.2: Remaining > 0 says one more request fits in that quota's window, whatever the model.
    run.f.fail('remaining', `an admitted answer reported Remaining ${prev.rate.remaining} of the ${prev.quota} quota, and the next request got a 429 of that quota`, {
      exchange: o.ex, expected: 0, received: prev.rate.remaining,
    });
  }
  if (prev.quota !== o.quota && prev.rate.remaining > 0) {
    run.f.fail('applicable', `an admitted answer reported the ${prev.quota} quota with Remaining ${prev.rate.remaining}, and the next request got a 429 of the ${o.quota} quota`, {
      exchange: o.ex, expected: `the ${o.quota} quota's headers (Remaining 0) before its 429`, received: `${prev.quota} quota, Remaining ${prev.rate.remaining}`,
    });
  } else run.f.pass('applicable');
}
