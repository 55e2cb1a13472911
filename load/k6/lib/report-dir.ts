// REPORT_DIR for a k6 script's summary file. No k6 module imported: the capacity bundle checks it in
// its lazy cold path (scripts/k6-lazy.ts), the other scripts through config.ts.
import { reportDirProblem } from '../../shared/guards.ts';

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** REPORT_DIR, checked at init (the only time open() works): throws, so k6 exits 107 before any request. */
export function checkedReportDir(dir: string | undefined): string | undefined {
  if (dir === undefined || dir === '') return undefined;
  let openError: string | undefined;
  try {
    open(dir);
  } catch (error) {
    openError = message(error);
  }
  const problem = reportDirProblem(dir.replace(/[\\/]+$/, '') || dir, openError);
  if (problem !== undefined) throw new Error(problem);
  return dir.replace(/[\\/]+$/, '') || dir;
}
