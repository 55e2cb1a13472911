// Every wait ends. A wait the server asks for is honoured only within what the plan's windows
// allow (the longest window plus the Date slack), and never beyond the user's --max-wait; a longer one
// cuts the probe short (its checks are skipped with the reason), it is not waited. The whole run has a
// worst-case duration derived from the plans and flags (`quotaBound`), printed at start and enforced:
// past it no probe sends or sleeps.
import { formatBound } from '../../core/duration.ts';
import type { Plan, Windows } from '../../spec/plans.ts';
import { DATE_SLACK_MS } from '../../spec/ratelimit.ts';
import type { ProbeName } from './checks.ts';
import { PROBE_TRIES, requestWorstMs } from './send.ts';
import { PROBE_WAITS, waitsFormula, waitsMs, type WaitingProbe } from './waits.ts';

export { HeldBack, HoldTooLong, WaitCapped } from './cut.ts';

/** The longest wait the plan's windows can justify: a whole day window plus the Date slack. */
export const windowsCapMs = (windows: Windows): number => windows.daySeconds * 1000 + DATE_SLACK_MS;

/** The per-wait cap: the windows' cap, or --max-wait when lower. */
export const waitCapMs = (windows: Windows, maxWaitMs?: number | undefined): number =>
  Math.min(windowsCapMs(windows), maxWaitMs ?? Number.POSITIVE_INFINITY);

export interface BoundInput {
  windows: Windows;
  /** The plan of each key under test. */
  plans: readonly Plan[];
  only: readonly ProbeName[];
  maxWaitMs?: number | undefined;
  /** Per-request timeout. */
  timeoutMs: number;
}

export interface Bound {
  totalMs: number;
  /** One line per part: what it may take and why. */
  parts: string[];
}

export function quotaBound(input: BoundInput): Bound {
  const cap = waitCapMs(input.windows, input.maxWaitMs);
  const requestMs = requestWorstMs(input.timeoutMs);
  const wants = (p: ProbeName): boolean => input.only.includes(p);
  // Each probe's declared waits (waits.ts), plus a request's worst case for the one in flight at its end.
  const of = (p: WaitingProbe): number => waitsMs(PROBE_WAITS[p], input.windows, cap) + requestMs;
  const minuteMs = wants('minute') || wants('isolation') ? of('minute') : 0;
  const burstMs = wants('burst') ? of('burst') : 0;
  const dayMs = wants('day') ? of('day') : 0;
  const n = input.plans.length;
  // Minute probes run one key after another; each key's burst and day probes run beside the other keys'.
  const totalMs = n * minuteMs + burstMs + dayMs;
  const parts = [
    `minute+isolation ${n} × ${formatBound(minuteMs)}`,
    `burst ${formatBound(burstMs)}`,
    `day ${formatBound(dayMs)}`,
    `each wait ≤ ` +
      `${formatBound(cap)}${input.maxWaitMs !== undefined && input.maxWaitMs < windowsCapMs(input.windows) ? ' (--max-wait)' : ' (a day window + slack)'}`,
  ];
  return { totalMs, parts };
}

/** The formula, for --help: the declarations of waits.ts written out. */
const SLACK = `${DATE_SLACK_MS / 1000} s`;
export const BOUND_FORMULA =
  `worst case = keys × minute + burst + day, with M = minute window, D = day window, W = min(--max-wait, D + ${SLACK}), ` +
  `T = ${PROBE_TRIES} × --timeout (a request's tries):\n` +
  (['minute', 'burst', 'day'] as const)
    .map((p) => `  ${p} = ${waitsFormula(PROBE_WAITS[p])} + T: it ${PROBE_WAITS[p].why};\n`)
    .join('') +
  '  past it no probe sends or waits.';
