// What a k6 script must refuse rather than pass silently, as pure functions (the k6 wiring is
// load/k6/lib/guards.ts): a command line that replaced the script's scenarios, and a REPORT_DIR the
// script cannot check or k6 cannot write into.

/** A run that sent no request proved nothing: k6 fails this threshold at 0 requests (exit code 99). */
export const NO_SILENT_PASS: Record<string, string[]> = { http_reqs: ['count>0'] };

/** A script whose failures are failed checks: any one fails the run (exit code 99). */
export const EVERY_CHECK_PASSES: Record<string, string[]> = { checks: ['rate==1'] };

/**
 * Why the scenarios k6 runs are not the script's, or undefined. `--vus`, `--iterations`, `--duration`
 * and `--stage` on the command line replace a script's scenarios with one "default" scenario; since
 * k6 v2.1 `--vus N` alone does too (k6 v1 ignores it while the script defines scenarios).
 */
export function replacedScenarios(expected: readonly string[], running: readonly string[]): string | undefined {
  const missing = expected.filter((name) => !running.includes(name));
  if (missing.length === 0) return undefined;
  return (
    `k6 is not running this script's scenarios (expected ${expected.join(', ')}; running ${running.join(', ') || 'none'}): ` +
    '--vus, --iterations, --duration and --stage replace them (since k6 v2.1 --vus alone does). ' +
    'Run the script without those flags: it sets its own load.'
  );
}

/** Why a k6 run is aborted when an iteration throws (k6 alone would only log it, and exit 0). */
export function iterationThrew(script: string, error: unknown): string {
  const why = error instanceof Error ? error.message : String(error);
  return `${script}: an iteration threw (${why}); nothing it measured can be trusted`;
}

/** True for /abs, C:\abs, C:/abs and \\server\share. */
export const isAbsolutePath = (path: string): boolean => /^(\/|[A-Za-z]:[\\/]|\\\\)/.test(path);

/**
 * Why REPORT_DIR cannot take the summary file, or undefined. k6 writes handleSummary's files relative to
 * its working directory and cannot create folders, while open() (the only way a script can look at the
 * file system, at init) resolves relative paths against the script: so the folder must be absolute, and
 * open(folder) must fail as k6 fails on a directory ("can't be used with directories"), not as on a
 * missing path or succeed as on a file.
 */
export function reportDirProblem(dir: string, openError: string | undefined): string | undefined {
  const hint =
    'give an existing folder as an absolute REPORT_DIR, or leave REPORT_DIR unset: the summary is always printed on stdout';
  if (!isAbsolutePath(dir)) return `REPORT_DIR=${dir} is relative: k6 could not check it before the run (${hint})`;
  if (openError === undefined) return `REPORT_DIR=${dir} is a file, not a folder (${hint})`;
  if (/directories/i.test(openError)) return undefined;
  return `REPORT_DIR=${dir} cannot be used: ${openError.replace(/^GoError: /, '')} (k6 does not create folders; ${hint})`;
}
