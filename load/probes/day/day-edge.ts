// Where the day counted by the slow path (day.ts countDay) begins and ends, when a fixed day may have been
// opened by the key's first request after the last one ended (express-rate-limit, rate-limiter-flexible,
// slowapi) rather than aligned to a clock: the count starts at the last day's Reset, but the day it counts
// began at the first request the server admitted after that day ended, ours, which may be earlier (a
// Reset a second late, slowapi's expiry + 1 s) or later (a stale Date, read at its latest) than that Reset.
import type { Sample } from '../../../report/model.ts';
import type { ProbeScope } from '../context.ts';
import type { ModelVerdict } from '../models/minute-count.ts';
import { traitsOf } from '../models/catalog.ts';
import { resetEndMs, type Observation } from '../observe.ts';
import { DATE_SLACK_MS as SLACK_MS, RESET_ROUNDING_MS } from '../../../spec/ratelimit.ts';

const sentServerMs = (o: Observation): number => o.serverMs - (o.receivedLocal - o.sentLocal);

/**
 * Where the counted day ends, for its 429's Retry-After. An aligned day ends one day after `start`. A day
 * opened by the key's first request after the last one ended (express-rate-limit, slowapi) began at the
 * count's first request, which went out once the server's clock had passed `start` on its latest reading:
 * with a Date cached for a second (uvicorn), up to a second or two after it. That 429's own day Reset says
 * when: taken when it names an end between the two (a Reset may read a second late: RESET_ROUNDING_MS),
 * else, and always for a day shown to be aligned, one day after `start`.
 */
export function countedDayEnd(
  run: ProbeScope,
  start: number,
  final: Observation,
  first: Observation | undefined,
  model: ModelVerdict | undefined,
): number {
  const dayMs = run.ctx.windows.daySeconds * 1000;
  const reset = final.quota === 'day' ? resetEndMs(run, final) : undefined;
  if (reset === undefined || first === undefined || traitsOf(model).start === 'aligned') return start + dayMs;
  const firstSentMs = sentServerMs(first);
  const opened = reset >= start + dayMs - SLACK_MS && reset <= firstSentMs + dayMs + RESET_ROUNDING_MS + SLACK_MS;
  return opened ? reset : start + dayMs;
}

/**
 * When the last day's 429 came within a rounded Reset of that day's end: this key's answers admitted after
 * that 429 was sent and before the count's first admitted one was (its wave siblings). The day ran out at its very end,
 * and with a Reset a second late (slowapi) our next answers may have opened the next day before the count
 * began, or have been counted in the last day before its 429: which, their headers do not say (slowapi shows
 * the minute's). How many the count may have missed; 0 for a day shown aligned (its Reset is its end).
 * `samples`: this key's, when the count ended.
 */
export function openedByOurEarlierAnswers(
  run: ProbeScope,
  samples: readonly Sample[],
  lastDay429: Observation,
  first: Observation | undefined,
  model: ModelVerdict | undefined,
): number {
  if (traitsOf(model).start === 'aligned' || first === undefined) return 0;
  const from = sentServerMs(lastDay429);
  const until = sentServerMs(first);
  const lastDayEnd = lastDay429.quota === 'day' ? resetEndMs(run, lastDay429) : undefined;
  if (lastDayEnd === undefined || lastDayEnd - lastDay429.serverMs > RESET_ROUNDING_MS + SLACK_MS) return 0;
  return samples.filter(
    (s) =>
      s !== lastDay429.sample && s !== first.sample && s.status >= 200 && s.status < 300 && s.t > from && s.t < until,
  ).length;
}
