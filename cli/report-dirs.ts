// One rule for every command: `<root>/<command>-<timestamp>/` for every run (root: --report-dir,
// default reports/) and `<root>/latest/` for the newest of any command: CI uploads the one, people open
// the other. Timestamps carry no colons, so the directories are valid on every file system.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FailOn, Report } from '../report/model.ts';
import { writeReport } from '../report/write.ts';

export function runDirName(at: Date): string {
  return at.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
}

export interface WrittenRun {
  runDir: string;
  latestDir: string;
  htmlPath: string;
}

export const DEFAULT_REPORT_ROOT = 'reports';
export const REPORT_DIR_HELP = 'root of the reports: each run writes <dir>/<command>-<timestamp>/ and refreshes <dir>/latest/';

export function writeRunDirs(root: string, report: Report, secrets: readonly string[], failOn: FailOn, at = new Date()): WrittenRun {
  const name = `${report.kind}-${runDirName(at)}`;
  let runDir = join(root, name);
  for (let n = 2; existsSync(runDir); n += 1) runDir = join(root, `${name}-${n}`);
  writeReport(runDir, report, secrets, failOn);
  const latestDir = join(root, 'latest');
  rmSync(latestDir, { recursive: true, force: true });
  writeReport(latestDir, report, secrets, failOn);
  return { runDir, latestDir, htmlPath: join(latestDir, 'report.html') };
}
