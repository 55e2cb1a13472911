// §8.2 rate-limit headers on every response (401, 4xx and 429 included), and §8.3 Retry-After.
// Reset is judged against the server's own Date (principle 3), never against our clock alone.
import fc from 'fast-check';
import type { Exchange } from '../../core/exchange.ts';
import { RATE_LIMIT_HEADERS } from '../../spec/contract.ts';
import {
  DATE_CACHE_MS,
  DATE_SLACK_MS,
  retryAfterFormProblem,
  isWholeSeconds,
  parseHeaderInt,
  parseRetryAfter,
  parseUnixTime,
  readRateLimit,
  serverDateMs,
} from '../../spec/ratelimit.ts';
import { listRequest, type RunContext } from '../context.ts';
import { SPEC_WINDOWS } from '../../spec/plans.ts';
import { fail, UNDECIDED, type Check, type ResponseCheck, type RunVerdict } from './types.ts';

/** The three headers §8.2 puts on every response. */
export const NAMES = [RATE_LIMIT_HEADERS.limit, RATE_LIMIT_HEADERS.remaining, RATE_LIMIT_HEADERS.reset];
const allPresent = (ex: Exchange): boolean => NAMES.every((n) => ex.response.headers[n] !== undefined);
const parsed = (ex: Exchange) => readRateLimit(ex.response.headers);

function headerCheck(
  id: string,
  title: string,
  applies: ResponseCheck['applies'],
  judge: ResponseCheck['judge'],
): ResponseCheck {
  return { kind: 'response', id, title, level: 'MUST', specRef: '§8.2', applies, judge };
}

const SLACK_SECONDS = DATE_SLACK_MS / 1000;
/** Reset and Date come from one server clock, the Date stamped (or cached) up to DATE_CACHE_MS before Reset. */
const SAME_CLOCK_SLACK_SECONDS = DATE_CACHE_MS / 1000;
/**
 * Without a Date header Reset can only be compared with our clock, and the server's may be hours off
 * (principle 3). A delta (seconds until the reset: at most a day) or milliseconds are still decades
 * away from either clock, so a day of slack keeps those findings and drops the skew.
 */
const NO_DATE_SLACK_SECONDS = 86_400;
/** GAPS.md: a 401 must carry the headers as integers, but their values (an unknown key has no plan) are OBSERVE. */
export const judgesValues = (ex: Exchange): boolean => ex.response.status !== 401 && parsed(ex).ok;

/**
 * Whether a refilling limiter (token bucket, GCRA) could have given a request back between sending `a` and
 * answering `b`: time enough for one request's refill at `limit` per window (windowsOf), and `b` reads
 * like one: its Reset ("when full again") no further from its Date than refilling what is missing takes.
 * A fixed window's Reset is its end, far off.
 */
function mayRefillOne(
  a: Exchange,
  b: Exchange,
  limit: number,
  ctx: Pick<RunContext, 'plan' | 'resetHorizonSeconds' | 'minuteSeconds'>,
): boolean {
  return windowsOf(limit, ctx).some((w) => refillsOneIn(a, b, limit, w));
}

function refillsOneIn(a: Exchange, b: Exchange, limit: number, windowSeconds: number): boolean {
  const elapsedMs = b.sentAt + b.durationMs - a.sentAt;
  if ((elapsedMs * limit) / (windowSeconds * 1000) < 1) return false;
  const r = parsed(b);
  const date = serverDateMs(b.response.headers);
  if (!r.ok || date === undefined) return false;
  const fullInSeconds = ((r.value.limit - r.value.remaining) * windowSeconds) / r.value.limit;
  return r.value.reset - date / 1000 <= fullInSeconds + 1 + SLACK_SECONDS;
}

/** The window a Limit counts in: the day's when it is the plan's day figure; without a plan, either. */
function windowsOf(limit: number, ctx: Pick<RunContext, 'plan' | 'resetHorizonSeconds' | 'minuteSeconds'>): number[] {
  const minute = ctx.minuteSeconds ?? SPEC_WINDOWS.minuteSeconds;
  if (!ctx.plan) return [minute, ctx.resetHorizonSeconds];
  return [limit === ctx.plan.perDay ? ctx.resetHorizonSeconds : minute];
}

/**
 * Whether `b` reads like a sliding log's answer: Reset one whole window after its Date (newest request +
 * window, reference/limiter-models.ts). Rounded either way to whole seconds, it lies more than W − 1 s
 * past a Date stamped with it, and at most W + 1 s (a second more for a Date stamped a moment before). A
 * sliding log gives a request back whenever one sent a window earlier ages out — ours or another client's
 * of the same key, at times petcert cannot know — so at a steady rate Remaining stays level. A fixed
 * window reads so only in its first second or two (its Reset is its end): those pairs are not compared.
 */
function readsLikeSlidingLog(
  b: Exchange,
  limit: number,
  ctx: Pick<RunContext, 'plan' | 'resetHorizonSeconds' | 'minuteSeconds'>,
): boolean {
  const r = parsed(b);
  const date = serverDateMs(b.response.headers);
  if (!r.ok || date === undefined) return false;
  const resetIn = r.value.reset - date / 1000;
  return windowsOf(limit, ctx).some((w) => resetIn > w - 1 && resetIn <= w + 1 + SAME_CLOCK_SLACK_SECONDS);
}

/**
 * A fixed window's answers decide nothing near its end (its Reset is as near as a refill's: mayRefillOne)
 * nor in its first second or two (its Reset a whole window after a cached Date, as a log's): about 4.5 s
 * around each end. A check all of whose runs fell there runs once more after this pause, past both.
 */
const WINDOW_EDGE_PAUSE_MS = 1000 + DATE_SLACK_MS + 1000 + DATE_CACHE_MS + 500;

/**
 * `n` list requests in a row, their Remaining compared pair by pair: undefined when one went down (the count
 * shows), a failure when two or more comparable pairs stayed level, else UNDECIDED.
 */
async function countdownOver(n: number, ctx: RunContext): Promise<RunVerdict> {
  const seen: Exchange[] = [];
  for (let i = 0; i < n; i += 1) seen.push(await ctx.send(listRequest(ctx, 'limit=1')));
  // Only pairs in the same window (same Limit and Reset) compare: a window boundary or a switch
  // from the minute to the day quota between two requests is not a fault. Other checks' requests
  // running meanwhile only make Remaining drop faster. A refilling limiter (token bucket, GCRA) may
  // give a request back between two of them: only pairs closer than one request's refill compare.
  // A sliding log gives back what ages out, at any moment: its level pairs never compare. A give-back
  // only ever hides a decrease: any pair in one window that went down shows the count (short windows).
  let comparable = 0;
  for (let i = 1; i < seen.length; i += 1) {
    const a = parsed(seen[i - 1]!);
    const b = parsed(seen[i]!);
    if (!a.ok || !b.ok || a.value.limit !== b.value.limit || a.value.reset !== b.value.reset) continue;
    if (b.value.remaining < a.value.remaining) return undefined;
    if (mayRefillOne(seen[i - 1]!, seen[i]!, a.value.limit, ctx)) continue;
    if (readsLikeSlidingLog(seen[i]!, a.value.limit, ctx)) continue;
    comparable += 1;
  }
  // Fewer than two pairs that stayed level decide nothing (one level pair may be a rounding): not a pass.
  if (comparable < 2) return UNDECIDED;
  return fail(
    `Remaining did not decrease over ${comparable} consecutive requests in one window`,
    seen[seen.length - 1],
  );
}

export const ratelimitChecks: Check[] = [
  headerCheck(
    'ratelimit.headers-present',
    'X-RateLimit-Limit, -Remaining and -Reset on every response',
    () => true,
    (ex) => {
      const missing = NAMES.filter((n) => ex.response.headers[n] === undefined);
      return missing.length ? fail(`missing ${missing.join(', ')} on a ${ex.response.status} response`, ex) : undefined;
    },
  ),
  headerCheck(
    'ratelimit.integers',
    'X-RateLimit-Limit and -Remaining are non-negative integers, -Reset a Unix timestamp',
    allPresent,
    (ex) => {
      const h = ex.response.headers;
      const counts = [RATE_LIMIT_HEADERS.limit, RATE_LIMIT_HEADERS.remaining].filter(
        (n) => parseHeaderInt(h[n]) === undefined,
      );
      const bad = counts.map((n) => `${n} is not a non-negative integer: ${JSON.stringify(h[n])}`);
      if (parseUnixTime(h[RATE_LIMIT_HEADERS.reset]) === undefined)
        bad.push(`${RATE_LIMIT_HEADERS.reset} is not a Unix timestamp: ${JSON.stringify(h[RATE_LIMIT_HEADERS.reset])}`);
      return bad.length ? fail(bad.join('; '), ex) : undefined;
    },
  ),
  {
    // §8.2 says "Unix timestamp", not integer: a fraction (slowapi: 1795501051.808396) is read as one, and
    // reported because clients and the IETF draft read whole seconds.
    kind: 'response',
    id: 'ratelimit.reset-integer',
    title: 'X-RateLimit-Reset is in whole seconds (a fraction is still a Unix timestamp)',
    level: 'SHOULD',
    specRef: '§8.2',
    applies: (ex) => parseUnixTime(ex.response.headers[RATE_LIMIT_HEADERS.reset]) !== undefined,
    judge: (ex) =>
      isWholeSeconds(ex.response.headers[RATE_LIMIT_HEADERS.reset])
        ? undefined
        : fail(
            `X-RateLimit-Reset ${JSON.stringify(ex.response.headers[RATE_LIMIT_HEADERS.reset])} is not in whole seconds`,
            ex,
          ),
  },
  headerCheck(
    'ratelimit.remaining-le-limit',
    'X-RateLimit-Remaining never exceeds X-RateLimit-Limit',
    judgesValues,
    (ex) => {
      const r = readRateLimit(ex.response.headers);
      return r.ok && r.value.remaining > r.value.limit
        ? fail(`Remaining ${r.value.remaining} > Limit ${r.value.limit}`, ex)
        : undefined;
    },
  ),
  headerCheck(
    'ratelimit.reset-timestamp',
    'X-RateLimit-Reset is a Unix timestamp in seconds (not ms, not a delta), judged against Date',
    judgesValues,
    (ex, ctx) => {
      const r = readRateLimit(ex.response.headers);
      if (!r.ok) return undefined;
      const serverDate = serverDateMs(ex.response.headers);
      const now = Math.floor((serverDate ?? ex.sentAt) / 1000);
      const slack = serverDate === undefined ? NO_DATE_SLACK_SECONDS : SLACK_SECONDS;
      const reset = r.value.reset;
      const clock = serverDate === undefined ? 'our clock (no Date header)' : "the response's Date";
      if (reset < now - slack)
        return fail(
          `Reset ${reset} lies ${now - reset} s before ${clock} (${now}): a delta or a past time, not the Unix time of the next reset`,
          ex,
          { expected: `${now}…${now + ctx.resetHorizonSeconds}`, received: reset },
        );
      if (reset > now + ctx.resetHorizonSeconds + slack)
        return fail(
          `Reset ${reset} lies ${reset - now} s after ${clock} (${now}), beyond the longest window (${ctx.resetHorizonSeconds} s): milliseconds?`,
          ex,
          { expected: `${now}…${now + ctx.resetHorizonSeconds}`, received: reset },
        );
      return undefined;
    },
  ),
  {
    kind: 'scenario',
    id: 'ratelimit.countdown',
    title: 'X-RateLimit-Remaining counts down between consecutive requests in one window',
    level: 'MUST',
    specRef: '§8.2',
    weight: 1,
    cost: 4,
    arbitrary: () => fc.integer({ min: 3, max: 5 }),
    undecided: {
      skip:
        'no two answers in one window could be compared: every pair had a new Reset, time for a refilling limiter to give a request' +
        ' back, or Reset one window after Date (a sliding log, where requests age out at times petcert cannot know)',
      fix: 'a key no other client uses, on windows of 60 s or more; `petcert quota` judges the count down its own way (quota.headers.remaining)',
    },
    undecidedAgainAfterMs: WINDOW_EDGE_PAUSE_MS,
    run: countdownOver,
  },
  {
    kind: 'response',
    id: 'ratelimit.retry-after',
    title: 'A 429 carries Retry-After (delay-seconds or HTTP-date)',
    level: 'MUST',
    specRef: '§7, §8.3 rule 2',
    applies: (ex) => ex.response.status === 429,
    // conform paces itself under the quota and never exhausts it: without a 429 the rule is quota's.
    unseen: {
      skip:
        'no 429 was answered: conform paces itself under the quota and never exhausts it; `petcert quota` (and certify) judge 429 +' +
        ' Retry-After (quota.retry-after.present, quota.retry-after.accurate)',
      kind: 'not-applicable',
    },
    judge(ex) {
      const r = parseRetryAfter(ex.response.headers);
      return r.ok ? undefined : fail(r.problem, ex);
    },
  },
  {
    kind: 'response',
    id: 'ratelimit.retry-after-form',
    title: 'Retry-After is delay-seconds (a whole number) or an HTTP-date (GMT), not decimal seconds or another zone',
    level: 'SHOULD',
    specRef: 'RFC 9110 §10.2.3',
    applies: (ex) => ex.response.status === 429 && parseRetryAfter(ex.response.headers).ok,
    judge(ex) {
      const r = parseRetryAfter(ex.response.headers);
      const problem = r.ok ? retryAfterFormProblem(r.value) : undefined;
      return problem === undefined ? undefined : fail(problem, ex);
    },
  },
  {
    kind: 'response',
    id: 'http.date',
    title: 'Responses carry a Date header (the server clock Reset is judged by)',
    level: 'SHOULD',
    specRef: 'RFC 9110 §6.6.1',
    applies: () => true,
    judge: (ex) =>
      serverDateMs(ex.response.headers) === undefined
        ? fail(`Date is ${JSON.stringify(ex.response.headers['date'] ?? null)}`, ex)
        : undefined,
  },
];
