// `reports/<timestamp>/` for every run and `reports/latest/` for the newest: CI uploads the one, people
// open the other. Timestamps carry no colons, so the directories are valid on every file system.
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

export function writeRunDirs(root: string, report: Report, secrets: readonly string[], failOn: FailOn, at = new Date()): WrittenRun {
  let runDir = join(root, runDirName(at));
  for (let n = 2; existsSync(runDir); n += 1) runDir = join(root, `${runDirName(at)}-${n}`);
  writeReport(runDir, report, secrets, failOn);
  const latestDir = join(root, 'latest');
  rmSync(latestDir, { recursive: true, force: true });
  writeReport(latestDir, report, secrets, failOn);
  return { runDir, latestDir, htmlPath: join(latestDir, 'report.html') };
}
