// Real-k6 tests: which k6 (K6, the pinned builds, PATH), and the rule that a missing k6 is a skip
// said out loud locally and a failure in CI (CI=true).
import { findK6 } from '../../load/k6-binary.ts';

export function k6OrUndefined(): string | undefined {
  try {
    return findK6();
  } catch {
    return undefined;
  }
}

export const inCi = process.env.CI === 'true' || process.env.CI === '1';

/** The suffix of a real-k6 test's name when it is skipped (never silently). */
export const skipNote = (k6: string | undefined): string => (k6 === undefined ? ' (SKIPPED: no k6 — npm run k6:build, or K6=/path/to/k6)' : '');
