// Real-k6 tests: which k6 (K6, the pinned builds, PATH), and the rule that a missing k6 is a skip
// said out loud locally and a failure in CI (CI=true).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { findK6 } from '../../load/k6-binary.ts';
import { buildK6 } from '../../scripts/build-k6.ts';

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

/** 2-second minutes: a free key carries 40 / 2 s = 20 req/s, at most 18 of them in a run. */
export const CAPACITY_PLANS = { windows: { minuteSeconds: 2, daySeconds: 3600 }, plans: { free: { perMinute: 40, perDay: 100_000 } } };

export interface CapacityBed {
  k6: string | undefined;
  dir: string;
  plansFile: string;
  /** The capacity bundle, built into `dir` once the file's tests start. */
  script(): string;
}

/**
 * What every capacity test file starts from: a temp folder, the compressed plans file, the bundle
 * built there (never into load/dist, which other tests read), and the rule that CI has a k6.
 */
export function capacityBed(prefix: string): CapacityBed {
  const k6 = k6OrUndefined();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const plansFile = join(dir, 'plans.json');
  let script = '';
  beforeAll(async () => {
    writeFileSync(plansFile, JSON.stringify(CAPACITY_PLANS));
    if (k6) script = (await buildK6(join(dir, 'dist'))).find((f) => f.endsWith('capacity.js'))!;
  }, 60_000);
  it('has a k6 to run in CI', () => {
    if (inCi) expect(k6, 'CI=true but no k6: .ci/run builds it with npm run k6:build').toBeDefined();
  });
  return { k6, dir, plansFile, script: () => script };
}
