// Records testkit/journals/: each recording (testkit/journals/recordings.ts) run live with `petcert quota`
// through the real CLI, its journal copied beside the verdict the live run gave (exit code, verdict, every
// check's outcome, messages and reason), so recordings.test.ts re-judges it offline and compares.
// Re-record after a change of the probes that makes them ask differently (the test then says which
// request a journal lacks): `npx tsx scripts/record-journals.ts [NAME...]`. A kept misjudgement (recordings.ts
// `kept`) is re-recorded only by name: a new live run need not show the same evidence.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VERSION } from '../core/version.ts';
import { JOURNAL_FILE } from '../load/journal/format.ts';
import type { Report } from '../report/model.ts';
import { runCli } from '../testkit/cli/run-cli.ts';
import {
  checkVerdicts,
  JOURNALS_DIR,
  RECORDINGS,
  startRecording,
  type RecordedVerdict,
  type Recording,
} from '../testkit/journals/recordings.ts';

/** Each live run's bound: the recordings take about two day windows of PROOF_PLANS. */
const RUN_TIMEOUT_MS = 240_000;

export const verdictOf = (report: Report, exit: number, liveMs: number): RecordedVerdict => ({
  recordedWith: VERSION,
  exit,
  verdict: report.verdict ?? 'unknown',
  liveMs,
  checks: checkVerdicts(report),
});

async function record(r: Recording): Promise<string> {
  const target = await startRecording(r);
  const dir = mkdtempSync(join(tmpdir(), `petcert-journal-${r.name}-`));
  writeFileSync(join(dir, 'plans.json'), JSON.stringify(target.plans));
  try {
    const keys = Object.entries(target.keys).flatMap(([key, plan]) => ['--key', `${plan}=${key}`]);
    const args = ['quota', '--base-url', target.baseUrl, ...keys, '--plans', join(dir, 'plans.json')];
    const started = Date.now();
    const run = await runCli([...args, ...target.args, '--report-dir', join(dir, 'reports')], {
      timeoutMs: RUN_TIMEOUT_MS,
    });
    const liveMs = Date.now() - started;
    const latest = join(dir, 'reports', 'latest');
    const report = JSON.parse(readFileSync(join(latest, 'report.json'), 'utf8')) as Report;
    copyFileSync(join(latest, JOURNAL_FILE), join(JOURNALS_DIR, `${r.name}.jsonl.gz`));
    const verdict = verdictOf(report, run.code ?? -1, liveMs);
    writeFileSync(join(JOURNALS_DIR, `${r.name}.verdict.json`), `${JSON.stringify(verdict, null, 2)}\n`);
    return `${r.name}: exit ${verdict.exit} ${verdict.verdict.toUpperCase()} in ${(liveMs / 1000).toFixed(1)} s`;
  } finally {
    await target.close();
  }
}

const names = process.argv.slice(2);
// A regression (`fixed` or `kept`) is re-recorded only when named: a live run rarely meets the evidence it keeps.
const chosen = names.length
  ? RECORDINGS.filter((r) => names.includes(r.name))
  : RECORDINGS.filter((r) => !r.fixed && !r.kept);
if (names.length && chosen.length !== names.length) {
  console.error(`unknown recording; known: ${RECORDINGS.map((r) => r.name).join(', ')}`);
  process.exit(2);
}
// One at a time: a live quota run is timing-sensitive, and the machine is shared.
for (const r of chosen) console.log(await record(r));
