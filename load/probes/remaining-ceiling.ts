// §8.2 "Requests remaining in the current window", read against petcert's own requests: within one window,
// Remaining can never exceed Limit minus the requests of this key the server admitted in that window.
// Other clients only lower it, and so does a server that counts its refusals. This catches a Remaining one
// too high throughout (counted before the request, not after) where consecutive answers still count down by
// one and the window was not fresh when the probe began: two limiters whose admitted answers carry the day's
// headers, the day opened by identifying the target. Pure: a function of the key's samples.
//
// "One window" is what the answers say: the same quota (its Limit) and the same Reset. A fixed window, a
// sliding log or a sliding window counter reports Remaining ≤ Limit − the requests it counted in the window
// that Reset ends. A token bucket (or GCRA) does not: it refills. Its Reset moves with it, whichever Reset
// it reports: the time it is full again rises by window/Limit per request, the time of its next token by
// that much per token refilled. So a group of answers sharing one Reset is judged only where a bucket could
// not have kept it: at least HEADER_RESOLUTION_S of such rises between them, and spread over more server
// time than a second and one token (with the Date slack).
import { fewest, most } from '../../core/extent.ts';
import type { Sample } from '../../report/model.ts';
import type { Plan, Windows } from '../../spec/plans.ts';
import type { Headers } from '../../core/exchange.ts';
import { DATE_SLACK_MS, readRateLimit } from '../../spec/ratelimit.ts';
import { HEADER_RESOLUTION_S } from './models/minute-count.ts';
import { quotaOf, type QuotaKind } from './observe.ts';

export type { Answer } from './answer.ts';
import type { Answer } from './answer.ts';

export interface CeilingBreach {
  quota: Exclude<QuotaKind, 'unknown'>;
  limit: number;
  reset: number;
  /** Answers of this key the server admitted in that window, at the least, when the breaching one was sent. */
  counted: number;
  remaining: number;
  answer: Answer;
}

/** An answer received outside the probes (identifying the target), as the ceiling reads it. */
export function answerOf(status: number, headers: Headers): Answer {
  const rate = readRateLimit(headers);
  return rate.ok ? { status, ...rate.value } : { status };
}

interface Group {
  quota: Exclude<QuotaKind, 'unknown'>;
  limit: number;
  reset: number;
  answers: Answer[];
}

function groupsOf(answers: readonly Answer[], plan: Pick<Plan, 'perMinute' | 'perDay'>, agesOut: boolean): Group[] {
  const groups = new Map<string, Group>();
  for (const a of answers) {
    const admitted = a.status >= 200 && a.status < 300;
    if (!admitted || a.limit === undefined || a.remaining === undefined || a.reset === undefined) continue;
    // Past the instant its Reset names (less the Date slack), a log may have let requests age out within that
    // second and still name it: unless the limiter keeps fixed windows, only the answers before it are one window's.
    if (agesOut && a.t !== undefined && a.t > a.reset * 1000 - DATE_SLACK_MS) continue;
    const quota = quotaOf(a.limit, plan);
    if (quota === 'unknown') continue;
    const id = `${a.limit}/${a.reset}`;
    const g = groups.get(id) ?? { quota, limit: a.limit, reset: a.reset, answers: [] };
    g.answers.push(a);
    groups.set(id, g);
  }
  return [...groups.values()];
}

/** Whether the group's one Reset rules out a refilling bucket (see the file's head). */
function notABucket(g: Group, windows: Windows): boolean {
  const lengthS = g.quota === 'minute' ? windows.minuteSeconds : windows.daySeconds;
  const tokenMs = (lengthS * 1000) / g.limit;
  const resolutionMs = HEADER_RESOLUTION_S * 1000;
  const times = g.answers.flatMap((a) => (a.t === undefined ? [] : [a.t]));
  const spanMs = times.length < 2 ? 0 : most(times) - fewest(times);
  return (g.answers.length - 1) * tokenMs >= resolutionMs && spanMs - DATE_SLACK_MS > resolutionMs + tokenMs;
}

/**
 * The first answer reporting more Remaining than its window leaves, or undefined. In whatever order the
 * answers came back (concurrent ones too): of the j answers of a window reporting the most Remaining, the
 * one the server counted last had at least j requests counted, so the j-th most is at most Limit − j.
 * `agesOut`: the model is not shown to be fixed windows (a log may let requests age out within a Reset's second).
 */
export function remainingCeilingBreach(
  answers: readonly Answer[],
  plan: Pick<Plan, 'perMinute' | 'perDay'>,
  windows: Windows,
  agesOut = false,
): CeilingBreach | undefined {
  if (plan.perMinute === plan.perDay) return undefined; // the Limit cannot tell which quota an answer reports
  for (const g of groupsOf(answers, plan, agesOut)) {
    if (!notABucket(g, windows)) continue;
    const sorted = [...g.answers].sort((a, b) => b.remaining! - a.remaining!);
    for (let j = 1; j <= sorted.length; j++) {
      const a = sorted[j - 1]!;
      // Past Limit admissions the window over-admitted (the exactness checks' to fail): Remaining stays at 0.
      if (a.remaining! <= Math.max(0, g.limit - j)) continue;
      return { quota: g.quota, limit: g.limit, reset: g.reset, counted: j, remaining: a.remaining!, answer: a };
    }
  }
  return undefined;
}
