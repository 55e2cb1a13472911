// The capacity tests' bed: compressed plans, the bundle built into a temp folder, and every test run
// once per pinned k6 version under testkit/k6's rule (skipped locally when a version is not built, said
// in the title; failing in CI).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe } from 'vitest';
import { buildK6 } from '../../scripts/build-k6.ts';
import { K6_UNDER_TEST } from '../k6/k6.ts';

/** The body's tests once per pinned k6 version; `k6()` is that version's binary (undefined: not built). */
export function eachK6(title: string, body: (k6: () => string | undefined) => void): void {
  for (const row of K6_UNDER_TEST)
    describe.skipIf(row.skip !== undefined)(`${title} under ${row.title}`, () => body(() => row.path));
}

/** 2-second minutes: a free key carries 40 / 2 s = 20 req/s, at most 18 of them in a run. */
export const CAPACITY_PLANS = {
  windows: { minuteSeconds: 2, daySeconds: 3600 },
  plans: { free: { perMinute: 40, perDay: 100_000 } },
};

export interface CapacityBed {
  dir: string;
  plansFile: string;
  /** The capacity bundle, built into `dir` once the file's tests start. */
  script(): string;
}

/**
 * What every capacity test file starts from: a temp folder, the compressed plans file, and the bundle
 * built there (never into load/dist, which other tests read).
 */
export function capacityBed(prefix: string): CapacityBed {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const plansFile = join(dir, 'plans.json');
  let script = '';
  beforeAll(async () => {
    writeFileSync(plansFile, JSON.stringify(CAPACITY_PLANS));
    script = (await buildK6(join(dir, 'dist'))).find((f) => f.endsWith('capacity.js'))!;
  }, 60_000);
  return { dir, plansFile, script: () => script };
}
