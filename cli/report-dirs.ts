// One rule for every command: `<root>/<command>-<timestamp>/` for every run (root: --report-dir,
// default reports/) and `<root>/latest/` for the newest of any command: CI uploads the one, people open
// the other. Timestamps carry no colons, so the directories are valid on every file system.
// Never half-written (docs/decisions/004), also when runs share a root: a run directory's name is claimed with
// mkdir (which fails when it exists), and both it and latest/ are filled under a temporary name first,
// then renamed into place whole.
import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FailOn, Report } from '../report/model.ts';
import { writeReport } from '../report/write.ts';

export function runDirName(at: Date): string {
  return at
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
}

export interface WrittenRun {
  runDir: string;
  latestDir: string;
  htmlPath: string;
}

export const DEFAULT_REPORT_ROOT = 'reports';
export const REPORT_DIR_HELP =
  'root of the reports: each run writes <dir>/<command>-<timestamp>/ and refreshes <dir>/latest/';

/** Attempts at a name or a swap another run took first; each retry is another run finishing at that instant. */
const MAX_ATTEMPTS = 1000;

const code = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

/** `<root>/<name>`, or `<name>-2`, `-3`…: the first one no other run has claimed (mkdir is atomic). */
function claimRunDir(root: string, name: string): string {
  for (let n = 1; n <= MAX_ATTEMPTS; n += 1) {
    const dir = join(root, n === 1 ? name : `${name}-${n}`);
    try {
      mkdirSync(dir);
      return dir;
    } catch (error) {
      if (code(error) !== 'EEXIST') throw error;
    }
  }
  throw new Error(`${MAX_ATTEMPTS} runs named ${name} already in ${root}`);
}

/** The report written whole in a hidden folder of `root` (dropped if writing fails); the caller renames it into place. */
function writeWhole(root: string, write: (dir: string) => void): string {
  const staging = mkdtempSync(join(root, '.writing-'));
  try {
    write(staging);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  return staging;
}

/** latest/ replaced by the staged folder: the old one moved aside first (rename cannot replace a full folder), then dropped. */
function swapLatest(root: string, staging: string): string {
  const latest = join(root, 'latest');
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const aside = `${staging}-old`;
    try {
      renameSync(latest, aside);
    } catch (error) {
      if (code(error) !== 'ENOENT') throw error;
    }
    try {
      renameSync(staging, latest);
      return latest;
    } catch (error) {
      // Another run put its latest/ there between our two renames: move it aside too and try again.
      if (!['ENOTEMPTY', 'EEXIST'].includes(code(error) ?? '')) throw error;
    } finally {
      rmSync(aside, { recursive: true, force: true });
    }
  }
  throw new Error(`could not replace ${latest}: ${MAX_ATTEMPTS} other runs replaced it meanwhile`);
}

export function writeRunDirs(
  root: string,
  report: Report,
  secrets: readonly string[],
  failOn: FailOn,
  at = new Date(),
  beside: Readonly<Record<string, Uint8Array>> = {},
): WrittenRun {
  mkdirSync(root, { recursive: true });
  const write = (dir: string) => void writeReport(dir, report, secrets, failOn, beside);
  const runDir = claimRunDir(root, `${report.kind}-${runDirName(at)}`);
  // Renaming onto the claimed, still empty folder replaces it in one step.
  renameSync(writeWhole(root, write), runDir);
  const latestDir = swapLatest(root, writeWhole(root, write));
  return { runDir, latestDir, htmlPath: join(latestDir, 'report.html') };
}
