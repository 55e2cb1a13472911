// Each probe's waits, declared once, as data (counted from the probe's code: a change to a probe's waits
// changes its line here). From these alone come the run's printed worst case (bounds.ts quotaBound), the
// run's deadline (load/quota.ts, the k6 probe scripts: past it nothing is sent or waited) and every k6
// probe script's maxDuration (load/k6/lib/probe-script.ts).
import { DATE_SLACK_MS } from '../../spec/ratelimit.ts';
import type { Windows } from '../../spec/plans.ts';
import type { ProbeName } from './checks.ts';
import { LATER_MS } from './models/minute-count.ts';

/** Whole windows, by length. */
export interface Windowed {
  minute?: number;
  day?: number;
}

export interface ProbeWaits {
  /** Waits for a window to end: each ≤ the window + the Date slack, and ≤ the per-wait cap (--max-wait). */
  waits: Windowed;
  /** Time the probe spends sending through windows, each bounded by the probe's own give-up. */
  spans: Windowed;
  /** Pauses of a fixed length (ms), whatever the windows: named by the constant the probe's code waits. */
  pausesMs?: number;
  /** What the figures count, for people (--help, README). */
  why: string;
}

/**
 * Where each phase of the day probe gives up, in windows (day.ts): finding the day's end (from its first
 * counted request) and counting a fresh day (from its start). Each looks between waits, so the minute
 * wait under way when its span runs out ends past it: the day probe declares both spans and one minute
 * wait each.
 */
const FIND = { day: 2, minute: 2 } as const;
const COUNT = { day: 1, minute: 2 } as const;
export const DAY_GIVE_UP = {
  find: FIND,
  count: COUNT,
  // A model shown not to be fixed windows (day-sliding.ts) has no day's end to find nor a fresh day to count:
  // its one paced run may take both spans, which a refilling day at a pace little above its refill needs (a
  // GCRA day of 600 a 45 s day, paced at 19 a second: it runs dry after ~103 s, past the 96 s of 'find').
  paced: { day: FIND.day + COUNT.day, minute: FIND.minute + COUNT.minute },
} as const;

/** Where a phase of the day probe gives up, in ms from its start. */
export const dayGiveUpMs = (windows: Windows, phase: keyof typeof DAY_GIVE_UP): number =>
  DAY_GIVE_UP[phase].day * windows.daySeconds * 1000 + DAY_GIVE_UP[phase].minute * windows.minuteSeconds * 1000;

/** The probes that wait; isolation runs inside the minute probe, within its waits. */
export type WaitingProbe = Exclude<ProbeName, 'isolation'>;

export const PROBE_WAITS: Record<WaitingProbe, ProbeWaits> = {
  minute: {
    // The day wait: a day quota's 429 met by the count or by the first retry after it (the key's day ran
    // out) is waited out as its Retry-After says, once (minute.ts waitOutDay); the recount after it is the
    // "count once more" below.
    // The 14th minute wait: to one more request once the recovery's window ended, when the later one kept
    // its Reset (a first-request window or a moving window, minute.ts tellAfter).
    waits: { minute: 14, day: 1 },
    // The 14th span: the window after the 429 counted when its headers do not show the minute quota
    // (minute.ts countNextWindow, two limiters); the 15th: the waves telling a bucket from a fixed window by
    // the Resets of its 429s, when the model is still unknown (minute-bucket.ts tellNotFixed: 1 s and two
    // eighths of a window, within one window from 2 s on); the pause: one more request LATER_MS after the
    // recovery, telling a first-request window from a sliding log (minute.ts modelOf).
    spans: { minute: 15 },
    pausesMs: LATER_MS,
    why:
      'finds a fresh window up to three times (the last after an idle window: two), waits out the 429 and backs off three times, ' +
      "waits out the day quota's Retry-After once when the key's day ran out (then counts once more, below), " +
      `may send one more request ${LATER_MS / 1000} s after the recovery (a first-request window or a sliding log) ` +
      "and one once the recovery's window ended (a first-request window or a moving window), " +
      'may count the window after the 429 (when its headers do not show the minute quota), may send waves over a second ' +
      "to tell a bucket from a fixed window by its 429s' Resets, and may count once more after an idle window (three, two of them doubled)",
  },
  burst: {
    // The day wait: a burst refused by the key's spent day bursts again after the day's end (burst.ts).
    waits: { minute: 4, day: 1 },
    spans: { minute: 4 },
    why: "finds a fresh window twice, each after an idle window when the model needs one, the second after the day's end when the key's day ran out",
  },
  day: {
    // Two minute waits: each phase gives up between waits, so the one under way when its span runs out
    // ends past it (day.ts DAY_GIVE_UP; day-span.test.ts). The second day wait is the fresh day's, or, when
    // no fresh day is counted, the wait out of the day's 429 before the one request it gives back (gaveBack).
    waits: { day: 2, minute: 2 },
    // The spans of finding and counting; a day not a fixed window's is paced through both instead (paced).
    spans: DAY_GIVE_UP.paced,
    why:
      `waits for a day window long enough to count, finds the day's end at the minute pace (gives up after ${DAY_GIVE_UP.find.day} days + ` +
      `${DAY_GIVE_UP.find.minute} minutes, and the minute wait under way), waits for a fresh day, then counts it (gives up after ` +
      `${DAY_GIVE_UP.count.day} day + ${DAY_GIVE_UP.count.minute} minutes, and the minute wait under way); a day shown refilling ` +
      `is paced through both spans instead (no fresh day is counted after it)`,
  },
};

const lengthMs = (windows: Windows, w: keyof Windowed): number =>
  (w === 'minute' ? windows.minuteSeconds : windows.daySeconds) * 1000;

/** A probe's declared worst case, its requests' own time aside: capped waits plus its spans and pauses. */
export function waitsMs(waits: ProbeWaits, windows: Windows, capMs: number): number {
  let ms = 0;
  for (const w of ['minute', 'day'] as const) {
    ms += (waits.waits[w] ?? 0) * Math.min(capMs, lengthMs(windows, w) + DATE_SLACK_MS);
    ms += (waits.spans[w] ?? 0) * lengthMs(windows, w);
  }
  return ms + (waits.pausesMs ?? 0);
}

/** The declaration as a formula, for --help: "14 × min(W, M + 1.5 s) + 14M + 1.1 s". */
export function waitsFormula(waits: ProbeWaits): string {
  const slack = `${DATE_SLACK_MS / 1000} s`;
  const letter = { minute: 'M', day: 'D' } as const;
  const terms: string[] = [];
  for (const w of ['minute', 'day'] as const) {
    const n = waits.waits[w];
    if (n) terms.push(`${n} × min(W, ${letter[w]} + ${slack})`);
  }
  for (const w of ['day', 'minute'] as const) {
    const n = waits.spans[w];
    if (n) terms.push(`${n === 1 ? '' : n}${letter[w]}`);
  }
  if (waits.pausesMs) terms.push(`${waits.pausesMs / 1000} s`);
  return terms.join(' + ');
}
