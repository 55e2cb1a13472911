// `petcert certify` writes its quota part's journal beside report.json; `petcert quota --rejudge` of it
// gives the quota part's checks (id, outcome, messages, reason, fix) exactly as the certify report listed
// them. Compressed windows and small figures keep the certification near half a minute.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, expect, test } from 'vitest';
import type { Report } from '../report/model.ts';
import { runCli } from '../testkit/cli/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'petcert-certify-journal-'));
const live = join(dir, 'live');
const plans = { windows: { minuteSeconds: 1, daySeconds: 8 }, plans: { free: { perMinute: 40, perDay: 200 } } };

const readReport = (root: string): Report => JSON.parse(readFileSync(join(root, 'latest', 'report.json'), 'utf8'));

/** What a verdict is made of: each check's id, outcome, messages, reason and fix. */
const verdicts = (r: Report) =>
  r.checks.map((c) => ({
    id: c.id,
    outcome: c.outcome,
    messages: c.failures.map((f) => f.message),
    reason: c.skipReason,
    fix: c.fix,
  }));

let certified: Report;

beforeAll(async () => {
  writeFileSync(join(dir, 'plans.json'), JSON.stringify(plans));
  const run = await runCli(['certify', '--plans', join(dir, 'plans.json'), '--report-dir', live], {
    cwd: dir,
    timeoutMs: 150_000,
  });
  expect(run.code, run.stdout + run.stderr).toBe(0);
  certified = readReport(live);
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
  const rejudged = readReport(again);
  const quotaPart = certified.checks.filter((c) => c.part === 'quota');
  expect(quotaPart.map((c) => c.id)).toContain('quota/quota.day.exact[free]');
  expect(verdicts(rejudged)).toEqual(verdicts({ ...certified, checks: quotaPart }));
  expect(rejudged.checks.every((c) => c.part === 'quota')).toBe(true);
  expect(rejudged.verdict).toBe('pass');
  expect(Object.keys(rejudged.series!)).toEqual(Object.keys(certified.series!));
}, 70_000);
