// Every wait ends (issue 12). A wait the server asks for is honoured only within what the plan's windows
// allow (the longest window plus the Date slack), and never beyond the user's --max-wait; a longer one
// cuts the probe short (its checks are skipped with the reason), it is not waited. The whole run has a
// worst-case duration derived from the plans and flags (`quotaBound`), printed at start and enforced:
// past it no probe sends or sleeps.
import { formatBound } from '../../core/duration.ts';
import type { Plan, Windows } from '../../spec/plans.ts';
import { DATE_SLACK_MS } from '../../spec/ratelimit.ts';
import type { ProbeName } from './checks.ts';
import { PROBE_TRIES, requestWorstMs } from './send.ts';

/** A wait longer than the cap, or past the run's bound: the probe ends and its open checks are skipped. */
export class WaitCapped extends Error {}

/** The longest wait the plan's windows can justify: a whole day window plus the Date slack. */
export const windowsCapMs = (windows: Windows): number => windows.daySeconds * 1000 + DATE_SLACK_MS;

/** The per-wait cap: the windows' cap, or --max-wait when lower. */
export const waitCapMs = (windows: Windows, maxWaitMs?: number): number => Math.min(windowsCapMs(windows), maxWaitMs ?? Number.POSITIVE_INFINITY);


/**
 * Window-long waits each probe can make, counted from its code: the minute probe finds a fresh window up
 * to three times (the last after an idle window: two), waits out the 429 and backs off three times, and
 * may count once more after an idle window (three, two of them doubled); the burst probe finds a fresh
 * window twice, each after an idle window when the model needs one.
 */
export const PROBE_WAITS = { minute: 13, burst: 4 } as const;

export interface BoundInput {
  windows: Windows;
  /** The plan of each key under test. */
  plans: readonly Plan[];
  only: readonly ProbeName[];
  maxWaitMs?: number;
  /** Per-request timeout. */
  timeoutMs: number;
}

export interface Bound {
  totalMs: number;
  /** One line per part: what it may take and why. */
  parts: string[];
}

/**
 * The day probe's worst case: a wait for a day window long enough to count (≤ 1 day), finding the day's
 * end at the minute pace (it gives up after 2 days + 2 minutes), a wait for a fresh day (≤ 1 day + slack),
 * then the count (it gives up after 1 day + 2 minutes). Each wait is also capped.
 */
export function dayBoundMs(windows: Windows, cap: number): number {
  const M = windows.minuteSeconds * 1000;
  const D = windows.daySeconds * 1000;
  return Math.min(cap, D) + (2 * D + 2 * M) + Math.min(cap, D + DATE_SLACK_MS) + (D + 2 * M);
}

export function quotaBound(input: BoundInput): Bound {
  const cap = waitCapMs(input.windows, input.maxWaitMs);
  const M = input.windows.minuteSeconds * 1000;
  const oneWait = Math.min(cap, M + DATE_SLACK_MS);
  const requestMs = requestWorstMs(input.timeoutMs);
  const wants = (p: ProbeName): boolean => input.only.includes(p);
  // A window's requests plus a request timeout's worth of stragglers, per wait.
  const minuteMs = wants('minute') || wants('isolation') ? PROBE_WAITS.minute * (oneWait + M) + requestMs : 0;
  const burstMs = wants('burst') ? PROBE_WAITS.burst * (oneWait + M) + requestMs : 0;
  const dayMs = wants('day') ? dayBoundMs(input.windows, cap) + requestMs : 0;
  const n = input.plans.length;
  // Minute probes run one key after another; each key's burst and day probes run beside the other keys'.
  const totalMs = n * minuteMs + burstMs + dayMs;
  const parts = [
    `minute+isolation ${n} × ${formatBound(minuteMs)}`,
    `burst ${formatBound(burstMs)}`,
    `day ${formatBound(dayMs)}`,
    `each wait ≤ ${formatBound(cap)}${input.maxWaitMs !== undefined && input.maxWaitMs < windowsCapMs(input.windows) ? ' (--max-wait)' : ' (a day window + slack)'}`,
  ];
  return { totalMs, parts };
}


/** The formula, for --help. */
const SLACK = `${DATE_SLACK_MS / 1000} s`;
export const BOUND_FORMULA =
  `worst case = keys × minute + burst + day, with M = minute window, D = day window, W = min(--max-wait, D + ${SLACK}), T = ${PROBE_TRIES} × --timeout (a request's tries):\n` +
  `  minute = ${PROBE_WAITS.minute} × (min(W, M + ${SLACK}) + M) + T;  burst = ${PROBE_WAITS.burst} × (min(W, M + ${SLACK}) + M) + T;\n` +
  `  day = min(W, D) + (2D + 2M) + min(W, D + ${SLACK}) + (D + 2M) + T.  Past it no probe sends or waits.`;
