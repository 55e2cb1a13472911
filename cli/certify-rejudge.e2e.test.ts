// `petcert certify` writes its quota part's journal beside report.json; `petcert quota --rejudge` of it
// gives the quota part's checks (id, outcome, messages, reason, fix) exactly as the certify report listed
// them; report.json binds the journal by the SHA-256 of its lines, so a one-byte edit is refused. Compressed windows and small figures keep the certification near half a minute.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { beforeAll, expect, test } from 'vitest';
import type { Report } from '../report/model.ts';
import { checkVerdicts, readLatestReport } from '../testkit/journals/recordings.ts';
import { runCli } from '../testkit/cli/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'petcert-certify-journal-'));
const live = join(dir, 'live');
// 2 s minutes: business's burst (twice its figure, 100 requests) is answered well inside its window on a loaded
// runner (a 1 s minute's 200 took 1,063 ms beside five other test files, and its burst was rightly unjudged).
const plans = {
  windows: { minuteSeconds: 2, daySeconds: 8 },
  plans: {
    free: { perMinute: 20, perDay: 80 },
    pro: { perMinute: 30, perDay: 120 },
    business: { perMinute: 50, perDay: 200 },
  },
};

const readReport = readLatestReport;
const verdicts = checkVerdicts;

let certified: Report;

beforeAll(async () => {
  writeFileSync(join(dir, 'plans.json'), JSON.stringify(plans));
  const run = await runCli(['certify', '--plans', join(dir, 'plans.json'), '--report-dir', live], {
    cwd: dir,
    timeoutMs: 150_000,
  });
  certified = readReport(live);
  const failed = certified.checks.filter((c) => c.outcome !== 'pass' && c.level === 'MUST');
  expect(run.code, JSON.stringify(failed, null, 1).slice(0, 4000)).toBe(0);
}, 160_000);

test("certify's journal, re-judged offline: the quota part's checks and verdict as the certify report listed them", async () => {
  const journal = join(live, 'latest', 'journal.jsonl.gz');
  const text = gunzipSync(readFileSync(journal)).toString('utf8');
  expect(text).not.toMatch(/pc_(quota|conform)_[a-z]+_[0-9a-f]{24}/);
  expect(JSON.parse(text.split('\n')[0]!)).toMatchObject({ part: 'quota' });

  const again = join(dir, 'rejudged');
  const run = await runCli(['quota', '--rejudge', journal, '--report-dir', again], { cwd: dir, timeoutMs: 60_000 });
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.stdout).toMatch(/the quota part of petcert certify/);
  expect(run.stdout).toMatch(/Bound: its lines hash to the sha256 .*report\.json recorded at the live run/);
  expect(certified.journal).toEqual({ file: 'journal.jsonl.gz', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  const rejudged = readReport(again);
  const quotaPart = certified.checks.filter((c) => c.part === 'quota');
  expect(quotaPart.map((c) => c.id)).toContain('quota/quota.day.exact[free]');
  expect(verdicts(rejudged)).toEqual(verdicts({ ...certified, checks: quotaPart }));
  expect(rejudged.checks.every((c) => c.part === 'quota')).toBe(true);
  expect(rejudged.verdict).toBe('pass');
  expect(Object.keys(rejudged.series!)).toEqual(Object.keys(certified.series!));
}, 70_000);

test('a journal one byte off the report.json beside it is refused (exit 2), naming both digests; nothing is written', async () => {
  const edited = join(dir, 'edited');
  mkdirSync(edited);
  copyFileSync(join(live, 'latest', 'report.json'), join(edited, 'report.json'));
  const lines = gunzipSync(readFileSync(join(live, 'latest', 'journal.jsonl.gz')))
    .toString('utf8')
    .split('\n');
  // One byte of an entry: an answer's status 200 becomes 201, still a well-formed journal.
  const at = lines.findIndex((line, i) => i > 0 && line.includes('"status":200'));
  lines[at] = lines[at]!.replace('"status":200', '"status":201');
  writeFileSync(join(edited, 'journal.jsonl.gz'), gzipSync(lines.join('\n')));
  const out = join(dir, 'edited-rejudged');
  const run = await runCli(['quota', '--rejudge', join(edited, 'journal.jsonl.gz'), '--report-dir', out], {
    cwd: dir,
    timeoutMs: 60_000,
  });
  expect(run.code, run.stdout + run.stderr).toBe(2);
  expect(run.stderr).toMatch(
    /does not match the report\.json beside it: its lines hash to sha256 [0-9a-f]{64}, the report recorded/,
  );
  expect(run.stderr).toContain(certified.journal!.sha256);
  expect(existsSync(join(out, 'latest', 'report.json'))).toBe(false);

  // The same edited journal alone is re-judged, said to be unbound: the digest binds a journal to its report only.
  const alone = join(dir, 'alone.jsonl.gz');
  copyFileSync(join(edited, 'journal.jsonl.gz'), alone);
  const unbound = await runCli(['quota', '--rejudge', alone, '--report-dir', join(dir, 'alone')], {
    cwd: dir,
    timeoutMs: 60_000,
  });
  expect(unbound.stdout).toMatch(/Unbound: no report\.json beside .* records its digest/);
}, 70_000);
