// What one `petcert quota` (or certify) run said, read from its report.json: the verdict the e2e proofs
// assert and the repeat bench tabulates. A MUST check skipped as "unjudged" is named as such: a run with
// one is not a PASS (docs/decisions/001), whatever the exit code of the day said.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../cli/run-cli.ts';

interface ReportCheck {
  id: string;
  level: 'MUST' | 'SHOULD' | 'OBSERVE';
  outcome: string;
  skipReason?: string;
  skipKind?: 'unjudged' | 'not-applicable';
  failures?: { message: string }[];
}

export interface RunVerdict {
  code: number | null;
  /** MUST checks that failed, with their first message. */
  failed: { id: string; message: string }[];
  /** MUST checks skipped as could-not-judge, with the reason. */
  unjudged: { id: string; reason: string }[];
  /** SHOULD checks with findings. */
  should: string[];
  /** Every MUST check: 'judged' (passed), 'false alarm?' (failed), 'unjudged' or 'n/a' (not applicable). */
  musts: { id: string; state: RuleState }[];
  /** The console's last lines, for assertion messages. */
  tail: string;
}

export type RuleState = 'judged' | 'failed' | 'unjudged' | 'n/a';

function ruleState(c: ReportCheck): RuleState {
  if (c.outcome === 'fail') return 'failed';
  if (c.outcome !== 'skip') return 'judged';
  return c.skipKind === 'not-applicable' ? 'n/a' : 'unjudged';
}

export function readVerdict(reportJson: string, code: number | null, console: string): RunVerdict {
  const checks = (JSON.parse(reportJson) as { checks: ReportCheck[] }).checks;
  const must = checks.filter((c) => c.level === 'MUST');
  return {
    code,
    failed: must
      .filter((c) => c.outcome === 'fail')
      .map((c) => ({ id: c.id, message: c.failures?.[0]?.message ?? '' })),
    unjudged: must
      .filter((c) => c.outcome === 'skip' && c.skipKind !== 'not-applicable')
      .map((c) => ({ id: c.id, reason: c.skipReason ?? '' })),
    should: checks.filter((c) => c.level === 'SHOULD' && c.outcome === 'fail').map((c) => c.id),
    musts: must.map((c) => ({ id: c.id, state: ruleState(c) })),
    tail: console.split('\n').slice(-25).join('\n'),
  };
}

/** "PASS", "FAIL id,id", "INCOMPLETE n unjudged" — one cell of the repeat table. */
export function verdictCell(v: RunVerdict): string {
  if (v.failed.length > 0) return `FAIL ${v.failed.map((f) => f.id).join(',')}`;
  if (v.unjudged.length > 0)
    return `INCOMPLETE ${v.unjudged.length} unjudged (${v.unjudged.map((u) => u.id).join(',')})`;
  return v.code === 0 ? 'PASS' : `exit ${v.code}`;
}

/** Runs `petcert quota` through the real CLI entry against `baseUrl` and reads its report. */
export async function runQuota(
  baseUrl: string,
  args: string[],
  options: { plansFile: string; timeoutMs: number },
): Promise<RunVerdict> {
  const dir = mkdtempSync(join(tmpdir(), 'petcert-limiters-'));
  const run = await runCli(
    ['quota', '--base-url', baseUrl, '--plans', options.plansFile, '--report-dir', dir, ...args],
    {
      timeoutMs: options.timeoutMs,
    },
  );
  const console = `${run.stdout}\n${run.stderr}`;
  let report: string;
  try {
    report = readFileSync(join(dir, 'latest', 'report.json'), 'utf8');
  } catch {
    throw new Error(`petcert quota wrote no report.json (exit ${run.code}):\n${console.slice(-3000)}`);
  }
  return readVerdict(report, run.code, console);
}
