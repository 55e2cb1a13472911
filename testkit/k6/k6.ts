// The real k6 in tests: every pinned version (load/k6-binary.ts) as a row of test.each, run as a child
// process. In CI (CI=true) a version that is not built is a failing test, never a skip (.ci/run builds
// them with `npm run k6:build`); on a developer's machine it is skipped, and the title says so.
import { k6CachePath, k6Versions, K6_PINNED_VERSIONS, type K6PinnedVersion } from '../../load/k6-binary.ts';
import { runK6Process } from '../../load/k6-process.ts';
import { collectSummaries, type PetcertK6Summary } from '../../load/shared/summary.ts';

export const IN_CI = process.env.CI === 'true' || process.env.CI === '1';

export interface K6UnderTest {
  version: K6PinnedVersion;
  /** undefined when not built: runK6 then fails (CI) — or the test is skipped (skip says why). */
  path: string | undefined;
  skip: string | undefined;
  /** "k6 v2.2.0", or "k6 v1.8.1 (skipped: …)" */
  title: string;
}

const built = new Map(k6Versions().map((k) => [k.version, k.path]));

/** One row per pinned version, newest first. */
export const K6_UNDER_TEST: K6UnderTest[] = K6_PINNED_VERSIONS.map((version) => {
  const path = built.get(version);
  const skip =
    path === undefined && !IN_CI ? `skipped: k6 ${version} is not built — run npm run k6:build (needs Go)` : undefined;
  return { version, path, skip, title: skip === undefined ? `k6 ${version}` : `k6 ${version} (${skip})` };
});

const skipped = K6_UNDER_TEST.filter((k) => k.skip !== undefined);
if (skipped.length > 0)
  console.warn(
    `k6 tests skipped under ${skipped.map((k) => `k6 ${k.version}`).join(' and ')}: not built — run npm run k6:build (needs Go)`,
  );

export interface K6Run {
  /** k6's exit code (99 thresholds crossed, 107 script error, 108 test aborted), null when killed. */
  code: number | null;
  stdout: string;
  stderr: string;
  /** The PETCERT_SUMMARY lines of stdout. */
  summaries: PetcertK6Summary[];
  ms: number;
}

export interface RunK6Options {
  /** Passed as k6's environment (and so __ENV); the test runner's own environment is not inherited. */
  env?: Record<string, string>;
  /** Default: a fresh temporary folder, so nothing a script writes lands in the repository. */
  cwd?: string;
  timeoutMs?: number;
}

/** `k6 run <args>` under one version, asynchronously (a reference server in this process keeps answering). */
export async function runK6(k6: K6UnderTest, args: string[], options: RunK6Options = {}): Promise<K6Run> {
  if (k6.path === undefined) {
    throw new Error(
      `k6 ${k6.version} is not built at ${k6CachePath(k6.version)}: every k6 test runs under every pinned version in CI; run npm run k6:build`,
    );
  }
  const run = await runK6Process({
    k6: k6.path,
    args: ['run', '--quiet', '--no-color', ...args],
    env: options.env,
    cwd: options.cwd,
    timeoutMs: options.timeoutMs ?? 120_000,
  });
  return {
    code: run.code,
    stdout: run.stdout,
    stderr: run.stderr,
    summaries: collectSummaries(run.stdout),
    ms: run.ms,
  };
}

/** k6's output for an assertion message. */
export const k6Output = (run: K6Run): string =>
  `exit ${run.code} after ${run.ms} ms\n--- stdout\n${run.stdout.slice(-4000)}\n--- stderr\n${run.stderr.slice(-4000)}`;
