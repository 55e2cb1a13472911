// `petcert capacity`'s worst-case duration (every wait ends): each k6 process is stopped at its own
// deadline (SIGINT, then SIGKILL after a grace), so a run is bounded by its processes' deadlines,
// whatever k6 or the target do. These figures are the deadlines themselves (cli/capacity*.ts use them).
import { type Bound } from '../probes/bounds.ts';
import { formatBound } from '../../core/duration.ts';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../../core/request-timeout.ts';

/** A step's k6 process: its step seconds plus k6's start, setup, graceful stop and summary. */
export const STEP_PROCESS_SLACK_MS = 60_000;
/** The calibration's k6 process against the trivial local target. */
export const CALIBRATION_TIMEOUT_MS = 90_000;
import { KILL_GRACE_MS } from '../k6-process.ts';

export { KILL_GRACE_MS };
/** The one preflight request before any load. */
export const PREFLIGHT_TIMEOUT_MS = DEFAULT_REQUEST_TIMEOUT_MS;

export const stepProcessTimeoutMs = (stepSeconds: number): number => stepSeconds * 1000 + STEP_PROCESS_SLACK_MS;

export function capacityBound(o: { steps: number; stepSeconds: number; calibrate: boolean }): Bound {
  const step = stepProcessTimeoutMs(o.stepSeconds) + KILL_GRACE_MS;
  const calibration = o.calibrate ? CALIBRATION_TIMEOUT_MS + KILL_GRACE_MS : 0;
  return {
    totalMs: PREFLIGHT_TIMEOUT_MS + calibration + o.steps * step,
    parts: [
      `preflight ${formatBound(PREFLIGHT_TIMEOUT_MS)}`,
      o.calibrate ? `calibration ${formatBound(calibration)}` : 'no calibration',
      `${o.steps} steps × ${formatBound(step)} (step + ${formatBound(STEP_PROCESS_SLACK_MS + KILL_GRACE_MS)} for k6 itself)`,
    ],
  };
}

export const CAPACITY_BOUND_HELP =
  `Every wait ends: the run's worst case = preflight ${formatBound(PREFLIGHT_TIMEOUT_MS)} + calibration` +
  ` ${formatBound(CALIBRATION_TIMEOUT_MS + KILL_GRACE_MS)}
+ steps × (--step-seconds + ${formatBound(STEP_PROCESS_SLACK_MS + KILL_GRACE_MS)}): each k6 process is stopped at its deadline. Printed at start.`;
