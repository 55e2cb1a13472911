// `petcert certify --config` against a faulty server: a conformance fault (400 answered as 422) and a
// quota fault (two requests over the minute limit admitted). The certificate fails (exit 1), names
// both, and the HTML report shows them.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { listen, type RunningServer } from '../reference/index.ts';
import type { Report } from '../report/model.ts';
import { parsePlansFile } from '../spec/plans.ts';
import { runCli, SMALL_PLANS } from '../testkit/cli/run-cli.ts';
import { scenarioChecks } from '../conformance/registry.ts';
import { CONFORM_DEFAULTS } from '../conformance/run.ts';
import { budgetCovering } from '../conformance/runner/budget.ts';

const FREE_KEY = 'pc_faulty_free_0123456789abcdef';
let server: RunningServer;

beforeAll(async () => {
  server = await listen({
    port: 0,
    plans: parsePlansFile(SMALL_PLANS),
    keys: { [FREE_KEY]: 'free' },
    faults: { overAdmit: 2 },
    wrap: (handle) => async (req) => {
      const res = await handle(req);
      return req.method === 'POST' && res.status === 400 ? { ...res, status: 422 } : res;
    },
  });
});

afterAll(async () => server?.close());

function configDir(budget?: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'petcert-faulty-'));
  writeFileSync(join(dir, 'plans.json'), JSON.stringify(SMALL_PLANS));
  writeFileSync(
    join(dir, 'petcert.config.json'),
    JSON.stringify({
      targets: {
        vendor: {
          baseUrl: server.baseUrl,
          production: false,
          keys: [{ plan: 'free', env: 'PETCERT_E2E_FREE_KEY' }],
          plansFile: 'plans.json',
          ...(budget !== undefined ? { budget } : {}),
        },
      },
    }),
  );
  return dir;
}

// With budget 200, auth.before-validation (and six more) would get no run, and a certificate could pass
// without them: certify refuses such a budget before any request, naming the figure (docs/decisions/001).
test('a configured budget that cannot run every MUST check: exit 2 before any request, naming the budget needed', async () => {
  const dir = configDir(200);
  const needed = budgetCovering(scenarioChecks(), CONFORM_DEFAULTS.maxRuns);
  const run = await runCli(['certify', '--target', 'vendor', '--report-dir', join(dir, 'reports')], {
    cwd: dir,
    env: { PETCERT_E2E_FREE_KEY: FREE_KEY },
    timeoutMs: 30_000,
  });
  expect(run.code, run.stdout + run.stderr).toBe(2);
  expect(run.stderr).toContain(
    `targets.vendor.budget: 200 requests per conform key leave MUST checks of conform unrun; certify needs at least ${needed}`,
  );
  expect(existsSync(join(dir, 'reports'))).toBe(false);
}, 60_000);

test('certify against a faulty server: exit 1, failures named in the console, JUnit and HTML', async () => {
  const dir = configDir();
  const reports = join(dir, 'reports');
  const run = await runCli(['certify', '--target', 'vendor', '--report-dir', reports, '--json'], {
    cwd: dir,
    env: { PETCERT_E2E_FREE_KEY: FREE_KEY },
    timeoutMs: 110_000,
  });
  expect(run.stderr).not.toMatch(/internal error/);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  // --json: the report alone on stdout; the verdict for people on stderr.
  const printed = JSON.parse(run.stdout) as Report;
  expect(run.stderr).toMatch(/^FAIL {2}petcert certify /m);
  expect(run.stderr).toMatch(/✗ MUST conform\[free\]\/create\.missing-field/);
  expect(run.stderr).toMatch(/✗ MUST quota\/quota\.minute\.exact\[free\]/);

  const latest = join(reports, 'latest');
  const report = JSON.parse(readFileSync(join(latest, 'report.json'), 'utf8')) as Report;
  expect(printed).toEqual(report);
  expect(report.checks.find((c) => c.id === 'quota/quota.minute.exact[free]')?.outcome).toBe('fail');
  const junit = readFileSync(join(latest, 'junit.xml'), 'utf8');
  expect(junit).toMatch(
    /<testcase classname="petcert\.certify\.MUST" name="conform\[free\]\/create\.missing-field: [^"]*">\s*<properties>[\s\S]*?<\/properties>\s*<failure /,
  );
  const html = readFileSync(join(latest, 'report.html'), 'utf8');
  expect(html).toContain('data-verdict="fail"');
  expect(html).toContain('id="check-quota_quota_minute_exact_free_"');
  for (const text of [junit, html, JSON.stringify(report), run.stdout, run.stderr])
    expect(text).not.toContain(FREE_KEY);
}, 120_000);
