// The rolling reading of "N per day" (at most N in any span of a day's length) beside the fixed window the
// minute count told. A limiter told fixed from its minute answers alone (a log's Reset can look fixed for a
// whole count) may still keep a rolling day: a day 429 that comes after this key's requests already filled
// a day's length is what a rolling window answers. Only a day whose own first answer declared it fresh
// (Remaining perDay − 1) binds the server to the fixed reading: then an early refusal is its own contradiction.
import { DATE_SLACK_MS as SLACK_MS } from '../../spec/ratelimit.ts';
import type { Sample } from '../../report/model.ts';
import type { Observation } from './observe.ts';
import type { ProbeScope } from './context.ts';

/**
 * Admitted answers among `samples` within a window's length before `atMs` (server ms), counted generously:
 * each answer's time ± the Date slack. The rolling reading allows a refusal at `atMs` once this reaches the figure.
 */
export const admittedWithin = (samples: readonly Sample[], atMs: number, windowMs: number): number =>
  samples.filter(
    (s) => s.status >= 200 && s.status < 300 && s.t >= atMs - windowMs - SLACK_MS && s.t <= atMs + SLACK_MS,
  ).length;

/**
 * Every answer among `samples` (admitted or refused) within a window's length before `atMs`, counted as
 * generously: a refused request reached the limiter too, and a limiter that counts refusals (a day first in
 * a chain of two, charged for what the minute then refuses) may refuse once these reach the figure.
 */
export const answeredWithin = (samples: readonly Sample[], atMs: number, windowMs: number): number =>
  samples.filter((s) => s.t >= atMs - windowMs - SLACK_MS && s.t <= atMs + SLACK_MS).length;

export interface CountedDay {
  final?: Observation;
  first?: Observation;
  samples: readonly Sample[];
}

/** Why the counted day's 429 is what a rolling window answers, or undefined when the evidence says otherwise. */
export function rollingDayRefusal(scope: ProbeScope, c: CountedDay): string | undefined {
  const { final, first } = c;
  const { perDay } = scope.k.plan;
  if (!final || final.status !== 429) return undefined;
  const fresh = first?.quota === 'day' && first.rate !== undefined && first.rate.remaining >= perDay - 1;
  if (fresh) return undefined;
  const dayMs = scope.ctx.windows.daySeconds * 1000;
  const admitted = admittedWithin(c.samples, final.serverMs, dayMs);
  const answered = answeredWithin(c.samples, final.serverMs, dayMs);
  if (answered < perDay) return undefined;
  const firstSaid = first?.rate ? `Remaining ${first.rate.remaining} of ${first.rate.limit}` : 'no day Remaining';
  const reached =
    admitted >= perDay
      ? `${admitted} of this key's requests were admitted`
      : `${answered} of this key's requests (${admitted} admitted, the others refused, which a limiter may count) reached the server`;
  return (
    `${reached} within a day's length (${dayMs / 1000} s) before the day 429: ` +
    `a rolling day refuses it, and the counted day's first answer (${firstSaid}) did not declare a fresh window`
  );
}
