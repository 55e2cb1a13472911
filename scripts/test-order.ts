// The suite's files in the order that ends it soonest: the longest first, so that none of them starts last
// beside idle workers. vitest orders a clean clone's files (CI's: no cache of durations) as the include glob
// lists them, which puts the limiter proofs, a minute or two each, at the end. Durations come from a vitest
// JSON report (`npx tsx scripts/test-order.ts REPORT.json` rewrites test-durations.json); a file not listed
// runs after the listed ones, in vitest's own order.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestSpecification } from 'vitest/node';
import { BaseSequencer } from 'vitest/node';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DURATIONS = join(ROOT, 'scripts/test-durations.json');
/** Files shorter than this are left in vitest's order: they fill the gaps the long ones leave. */
const LISTED_FROM_S = 5;

/** Seconds per test file (its path from the repository root), as a vitest JSON report measured them. */
export function durationsOf(report: {
  testResults: ReadonlyArray<{ name: string; startTime: number; endTime: number }>;
}): Record<string, number> {
  const entries = report.testResults
    .map((t) => [relative(ROOT, t.name), Math.round((t.endTime - t.startTime) / 1000)] as const)
    .filter(([, s]) => s >= LISTED_FROM_S)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return Object.fromEntries(entries);
}

/** The listed files longest first, then the rest in the order given. */
export function longestFirst<T>(files: readonly T[], pathOf: (f: T) => string, seconds: Record<string, number>): T[] {
  const weight = (f: T): number => seconds[pathOf(f)] ?? -1;
  return files
    .map((f, i) => ({ f, i }))
    .sort((a, b) => weight(b.f) - weight(a.f) || a.i - b.i)
    .map(({ f }) => f);
}

/** None listed when the file is absent; a file that is there but not JSON is an error, not a silent reorder. */
const readDurations = (): Record<string, number> =>
  existsSync(DURATIONS) ? (JSON.parse(readFileSync(DURATIONS, 'utf8')) as Record<string, number>) : {};

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    return longestFirst(base, (f) => relative(ROOT, f.moduleId), readDurations());
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const source = process.argv[2];
  if (!source) {
    console.error('usage: npx tsx scripts/test-order.ts VITEST-JSON-REPORT');
    process.exit(2);
  }
  const durations = durationsOf(JSON.parse(readFileSync(source, 'utf8')));
  writeFileSync(DURATIONS, `${JSON.stringify(durations, null, 2)}\n`);
  console.log(`${Object.keys(durations).length} files of ${LISTED_FROM_S} s or more → ${relative(ROOT, DURATIONS)}`);
}
