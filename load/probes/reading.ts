// The reading a quota's counts are judged under. §8 speaks of "the current window", "requests remaining in
// the current window" and a Reset "at which the limit resets": windows that reset. So by default no more
// than the plan's figure may be admitted within any span of one window's length the evidence pins down
// (the window reading). A vendor whose plans are rates with a burst declares it (`--limiter-model
// token-bucket`, the plans file's `limiterModel`): then a bucket of capacity N refilled at N per window is
// judged as one, and whatever such a bucket would not admit still fails. The certificate names the reading.
import type { Reading } from '../../report/model.ts';
import type { DeclaredModel } from '../../spec/plans.ts';
import { traitsOfName, type LimiterModelName } from './models/catalog.ts';
import { acceptedReadings, readingById } from './models/readings.ts';

export type { DeclaredModel } from '../../spec/plans.ts';

export const WINDOW_READING_TEXT = "judged under the window reading (at most N in any window's length)";
export const BUCKET_READING_TEXT = 'judged as a token bucket (capacity N, N per window)';

/** How the certificate reads the counts (report.json `reading`): undeclared, the window reading. */
export const readingOf = (declared: DeclaredModel | undefined): Reading =>
  declared === undefined
    ? { model: 'window', declared: false, text: WINDOW_READING_TEXT }
    : { model: declared, declared: true, text: BUCKET_READING_TEXT };

/** The reading's sentence with the plan's figure in place of N. */
export const readingFor = (declared: DeclaredModel | undefined, figure: number): string =>
  readingOf(declared).text.replace(/\bN\b/g, String(figure));

/**
 * Whether a model's refill may be counted over `spanMs`: when an accepted reading refills within a window
 * (models/readings.ts: the bucket reading, once declared), or over a span longer than a window (no window of
 * the plan's length then holds every request). A sliding window counter keeps fixed windows of its own (its
 * Reset names their end), so a count that crosses one of them is two windows' and keeps its allowance under
 * every reading.
 */
export const refillCounts = (
  declared: DeclaredModel | undefined,
  model: LimiterModelName,
  windowMs: number,
  spanMs: number,
): boolean =>
  acceptedReadings(declared).some((r) => r.refillsWithinWindow) || traitsOfName(model).ownWindows || spanMs >= windowMs;

/** Most a bucket of `figure` refilled at `figure` per window admits within one window's length (models/readings.ts). */
export const bucketWindowMost = (figure: number): number => readingById('bucket').mostWithinWindow(figure);

/**
 * What the evidence proves when more than the figure were admitted within one window's length, under the
 * window reading: "103 admitted within 36.6 s of one 45 s day: a bucket of 60 refilled at 60 per day admits
 * up to 119 per day; judged under the window reading (at most 60 in any window's length)".
 */
export function overWindowText(
  admitted: number,
  spanMs: number,
  figure: number,
  windowS: number,
  unit: 'minute' | 'day',
): string {
  const within = `${admitted} admitted within ${(spanMs / 1000).toFixed(1)} s of one ${windowS} s ${unit}`;
  const bucket = `a bucket of ${figure} refilled at ${figure} per ${unit} admits up to ${bucketWindowMost(figure)} per ${unit}`;
  return `${within}: ${bucket}; ${readingFor(undefined, figure)}`;
}

/**
 * A count that crossed its limiter's own window end, as its answers show it: the Reset form of a sliding
 * window counter that names when its weighted last window next drops by one (the limits library's,
 * slowapi strategy="sliding-window-counter"). Some of the count's admitted answers, never more than the
 * figure, name one end E (their Resets within a quarter of a refill interval of the earliest: the server's
 * clock read twice); every other admitted answer names E plus a whole number of steps of w / p, as closely,
 * where p (at most the figure) is the last window's count: past E the counter weighs that window by the share
 * still to run, and the weight drops by one every w / p. A bucket's Resets rise by a refill interval per
 * request, a fixed window's next end is a whole window later; whole-second Resets (a fixed window's rounding,
 * a log's) a second apart are never read as a step. Past E the floor of the weight lets one more in at once,
 * then one more per step.
 */
export interface OwnEndCrossed {
  /** The end the earliest answers name (Unix s, as read). */
  end: number;
  /** The last window's count the steps show. */
  last: number;
  /** Admitted answers past E. */
  past: number;
  /** The most such a counter admits over the span: the figure, what the last window's weight gives back, and the one the floor lets in. */
  most: number;
}

/** A quarter of a quota's refill interval: one end's Resets read apart by less are one (waves.ts serverOrder, ownEndCrossed). */
export const resetNoiseMs = (figure: number, windowMs: number): number => windowMs / Math.max(1, figure) / 4;

/** The Resets of admitted answers when every one reports the minute quota (the evidence of its own windows), else undefined. */
export function minuteResets<R extends { reset: number }>(
  admitted: ReadonlyArray<{ quota: string; rate?: R }>,
): R[] | undefined {
  const rates = admitted.flatMap((a) => (a.quota === 'minute' && a.rate ? [a.rate] : []));
  return rates.length === admitted.length ? rates : undefined;
}

/**
 * Every admitted answer reports the minute quota and names one end (the earliest Reset, within a quarter of a
 * refill interval: one clock read twice): the count stayed within one window of the limiter's own. A counter
 * that crosses its window end names later ends past it (the steps of ownEndCrossed, or the next window's end).
 */
export function namesOneEnd(
  admitted: ReadonlyArray<{ quota: string; rate?: { reset: number } }>,
  figure: number,
  windowMs: number,
): boolean {
  const rates = minuteResets(admitted);
  if (!rates || rates.length === 0) return false;
  const ms = rates.map((r) => r.reset * 1000);
  return Math.max(...ms) - Math.min(...ms) <= resetNoiseMs(figure, windowMs);
}

export function ownEndCrossed(
  admitted: ReadonlyArray<{ reset: number }>,
  figure: number,
  windowMs: number,
  spanMs: number,
): OwnEndCrossed | undefined {
  const ms = admitted.map((a) => a.reset * 1000).sort((a, b) => a - b);
  const noiseMs = resetNoiseMs(figure, windowMs);
  const end = ms[0];
  if (end === undefined || ms.length <= figure) return undefined;
  const named = ms.filter((r) => r - end <= noiseMs).length;
  const past = ms.slice(named).map((r) => r - end);
  // Whole seconds: a second apart is rounding (one fixed window's end named as two seconds) or a log's move.
  const fractional = admitted.some((a) => !Number.isInteger(a.reset));
  const within = fractional ? windowMs : Math.min(1000, windowMs);
  if (named > figure || past.length === 0 || past.some((d) => d >= within)) return undefined;
  const onGrid = (p: number): boolean =>
    past.every((d) => {
      const steps = Math.round((d * p) / windowMs);
      return steps >= 1 && Math.abs(d - (steps * windowMs) / p) <= noiseMs;
    });
  for (let last = named; last <= figure; last++) {
    if (onGrid(last))
      return { end: end / 1000, last, past: past.length, most: figure + Math.floor((last * spanMs) / windowMs) + 1 };
  }
  return undefined;
}
