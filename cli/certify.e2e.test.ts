// `petcert certify` with no configuration (what `npm start` runs), end to end in a child process:
// the embedded reference server, every plan's quotas, one green certificate. A smaller plans file keeps
// it near a minute (`npm start` itself uses the specification's figures; see cli/embedded.ts).
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { Report } from '../report/model.ts';
import { runCli, SMALL_PLANS } from '../testkit/cli/run-cli.ts';

test('petcert certify without a config certifies the embedded reference server: exit 0, reports written', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'petcert-certify-'));
  const plans = join(dir, 'plans.json');
  writeFileSync(plans, JSON.stringify(SMALL_PLANS));
  const reports = join(dir, 'reports');
  const started = Date.now();
  const run = await runCli(['certify', '--plans', plans, '--report-dir', reports], { cwd: dir, timeoutMs: 170_000 });
  console.log(`certify took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  expect(run.stderr).not.toMatch(/internal error/);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.stdout).toMatch(/certifying the embedded reference server at http:\/\/127\.0\.0\.1:\d+\/v1/);
  expect(run.stdout).toMatch(/^PASS {2}petcert certify http:\/\/127\.0\.0\.1:\d+\/v1$/m);
  expect(run.stdout).toContain(`Report: ${join(reports, 'latest', 'report.html')}`);

  const runs = readdirSync(reports).filter((d) => d !== 'latest');
  expect(runs).toHaveLength(1);
  for (const d of [runs[0]!, 'latest'])
    for (const f of ['report.json', 'junit.xml', 'report.html']) expect(existsSync(join(reports, d, f))).toBe(true);

  const report = JSON.parse(readFileSync(join(reports, 'latest', 'report.json'), 'utf8')) as Report;
  expect(report.kind).toBe('certify');
  const ids = report.checks.map((c) => c.id);
  for (const plan of ['free', 'pro', 'business']) {
    expect(ids).toContain(`conform[${plan}]/create.valid`);
    expect(report.checks.find((c) => c.id === `conform[${plan}]/ratelimit.limit-of-plan`)?.outcome).toBe('pass');
    for (const check of ['quota.minute.exact', 'quota.day.exact', 'quota.burst.exact']) {
      expect(report.checks.find((c) => c.id === `quota/${check}[${plan}]`)?.outcome).toBe('pass');
    }
  }
  expect(report.checks.filter((c) => c.level === 'MUST' && c.outcome === 'fail')).toEqual([]);
  expect(Object.keys(report.series ?? {})).toEqual(expect.arrayContaining(['quota/minute:free', 'quota/day:business']));
  expect(report.requests).toBeGreaterThan(3000);
  // The fresh keys never reach an artifact.
  const html = readFileSync(join(reports, 'latest', 'report.html'), 'utf8');
  expect(html).not.toMatch(/pc_(quota|conform)_[a-z]+_[0-9a-f]{24}/);
  expect(html).toContain('data-verdict="pass"');
  // A plot per multi-sample probe series, and a per-day-window plot for each plan's day probe.
  const plotted = Object.values(report.series!).filter((s) => s.length > 1).length;
  expect(html.match(/<svg class="plot"/g)?.length).toBe(plotted + 3);
  for (const plan of ['free', 'pro', 'business']) expect(html).toContain(`data-probe="quota/day:${plan}-cumulative"`);
  expect(html).toMatch(/counted per day window/);
}, 180_000);
