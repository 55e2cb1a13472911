// The isolation probe: while one key's minute window is spent, every other key is still admitted.
// It rides on the minute probe's exhausted window, so it costs one request per other key. It sends and
// records (`probeIsolation`); ISOLATION_RULES judge what it saw.
import { verdict } from '../../../report/check.ts';
import { keySamples, type ProbeRun } from '../context.ts';
import type { ModelVerdict } from '../models/minute-count.ts';
import { PROBE_CHECKS } from '../checks.ts';
import { failure, missing, rule, UNEXPLAINED, unreached, type Observed, type ProbeRule } from '../findings.ts';
import { isFixed } from '../models/unknown.ts';
import { DATE_SLACK_MS as SLACK_MS } from '../../../spec/ratelimit.ts';
import { observe } from '../request.ts';
import type { Observation } from '../observe.ts';
import type { WindowCount } from '../window.ts';

export interface IsolationObservation extends Observed {
  spentPlan: string;
  /** Fewer than two keys: there is no other key to isolate. */
  alone?: boolean;
  /** The spent key's minute window (server ms end) and whether it refused; absent when never spent. */
  spent?: { rejected: boolean; endMs: number };
  /** Each other key's answer, and whether its own earlier requests explain a refusal. */
  answers: Array<{ plan: string; o: Observation; explained: boolean }>;
}

export const isolationOf = (spent: ProbeRun, alone = false): IsolationObservation => ({
  spentPlan: spent.k.plan.name,
  alone,
  answers: [],
});

/** One request per other key while `count`'s window is spent, recorded into `seen`. */
export async function probeIsolation(
  seen: IsolationObservation,
  count: WindowCount,
  others: ReadonlyArray<{ run: ProbeRun; model: ModelVerdict | undefined }>,
): Promise<void> {
  seen.spent = { rejected: count.rejected !== undefined, endMs: count.endMs };
  if (!count.rejected) return;
  for (const { run: other, model } of others) {
    const explained = ownStateExplains(other, model); // before this request joins its series
    seen.answers.push({ plan: other.k.plan.name, o: await observe(other), explained });
  }
}

const isolation = rule<IsolationObservation>(
  'isolation',
  (s) =>
    s.answers.flatMap(({ plan, o, explained }) => {
      if (o.admitted) return [verdict.pass];
      if (o.serverMs >= s.spent!.endMs - SLACK_MS / 3 || explained) return [];
      const message = `the key for plan ${plan} got ${o.status} right after the key for plan ${s.spentPlan} spent its minute quota`;
      return [failure(message, { exchange: o.ex, expected: 'admitted', received: o.status })];
    }),
  (s) => {
    if (s.alone) {
      const fix =
        'give a key of a second plan: --key PLAN=KEY again (or --only minute,burst,day to leave isolation out)';
      return verdict.unjudged('isolation needs keys of at least two plans', fix);
    }
    if (!s.spent) return missing(s, SPENT, UNEXPLAINED);
    return s.spent.rejected
      ? undefined
      : verdict.unjudged(
          `the key for plan ${s.spentPlan} could not be exhausted: its minute count ended without a 429`,
          NOT_EXHAUSTED_FIX,
        );
  },
);

const SPENT = "a spent minute window of the key with the highest minute figure (the minute probe's count)";
const NOT_EXHAUSTED_FIX =
  "a limiter that refuses past the plan's minute figure (quota.minute.exact shows how many it admitted)";

/** Every other key's answer came at the spent window's end, or its own earlier requests explain its refusal. */
const NONE_JUDGED = {
  reason: "no other key's answer fell inside the spent window and outside the reach of that key's own earlier requests",
  fix: 'a minute window longer against the round trip (plans file: windows.minuteSeconds) or a target closer to petcert',
};

export const ISOLATION_RULES: readonly ProbeRule<IsolationObservation>[] = [
  isolation,
  ...unreached(PROBE_CHECKS.isolation, () => NONE_JUDGED),
];

/**
 * A limiter that is not a fixed window may still be refusing the other key for its own earlier requests
 * (a counter's last window still weighs); its Remaining only grows while it is idle, so its last answer
 * tells: Remaining 0 then explains a refusal now.
 */
function ownStateExplains(other: ProbeRun, model: ModelVerdict | undefined): boolean {
  if (model === undefined || isFixed(model)) return false;
  const last = keySamples(other).reduce<{ t: number; remaining?: number; status: number } | undefined>(
    (a, b) => (a === undefined || b.t >= a.t ? b : a),
    undefined,
  );
  return last !== undefined && (last.status === 429 || (last.remaining ?? 0) < 1);
}
