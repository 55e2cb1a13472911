import { expect, test } from 'vitest';
import {
  capacityBound,
  CALIBRATION_TIMEOUT_MS,
  KILL_GRACE_MS,
  PREFLIGHT_TIMEOUT_MS,
  STEP_PROCESS_SLACK_MS,
} from './bound.ts';

test('the worst case adds the deadlines of every process the run may start', () => {
  const b = capacityBound({ steps: 8, stepSeconds: 60, calibrate: true });
  expect(b.totalMs).toBe(
    PREFLIGHT_TIMEOUT_MS +
      CALIBRATION_TIMEOUT_MS +
      KILL_GRACE_MS +
      8 * (60_000 + STEP_PROCESS_SLACK_MS + KILL_GRACE_MS),
  );
  expect(capacityBound({ steps: 8, stepSeconds: 60, calibrate: false }).totalMs).toBe(
    b.totalMs - CALIBRATION_TIMEOUT_MS - KILL_GRACE_MS,
  );
  expect(b.parts.join('; ')).toMatch(/8 steps × 2m05s/);
});
