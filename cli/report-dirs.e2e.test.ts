// Runs sharing a --report-dir, finishing at the same instant, never leave a half-written
// report (latest/ included) nor write into each other's run folder.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../testkit/report/write-many.ts', import.meta.url));
const RUNS = 4;
const WRITES = 5;

function writer(root: string, tag: string): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, root, String(WRITES), tag], { stdio: 'inherit' });
    child.on('close', resolve);
  });
}

test('four runs writing into one root at once: every report whole, latest/ always whole, no folder shared', async () => {
  const root = mkdtempSync(join(tmpdir(), 'petcert-shared-'));
  const writers = Promise.all(Array.from({ length: RUNS }, (_, i) => writer(root, `run${i}`)));
  let done = false;
  void writers.then(() => (done = true));
  const torn: string[] = [];
  let reads = 0;
  while (!done) {
    for (const f of ['report.json', 'junit.xml', 'report.html']) {
      const path = join(root, 'latest', f);
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch {
        continue; // latest/ is between two renames, or not written yet: absent is not torn
      }
      reads += 1;
      const whole =
        f === 'report.json'
          ? (() => {
              try {
                JSON.parse(text);
                return true;
              } catch {
                return false;
              }
            })()
          : text.trimEnd().endsWith(f === 'junit.xml' ? '</testsuites>' : '</html>');
      if (!whole) torn.push(`${f}: ${text.length} bytes`);
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  expect(await writers).toEqual(Array(RUNS).fill(0));
  expect(torn).toEqual([]);
  expect(reads).toBeGreaterThan(0);
  const dirs = readdirSync(root).filter((d) => d !== 'latest');
  // One folder per write, each with its own report, nothing left under a temporary name.
  expect(dirs).toHaveLength(RUNS * WRITES);
  const targets = new Set(
    dirs.map((d) => JSON.parse(readFileSync(join(root, d, 'report.json'), 'utf8')).target as string),
  );
  expect(targets.size).toBe(RUNS * WRITES);
  for (const d of dirs) for (const f of ['junit.xml', 'report.html']) expect(existsSync(join(root, d, f))).toBe(true);
  expect(readdirSync(join(root, 'latest')).sort()).toEqual(['junit.xml', 'report.html', 'report.json']);
}, 120_000);
