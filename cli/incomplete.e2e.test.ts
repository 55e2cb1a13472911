// A run that finished with a MUST check it could not judge is INCOMPLETE (exit 4), never a
// PASS, and every console names each such check with its reason and fix. One proof per cause of "not
// run": through conform against real servers (a budget too small, no category id known), and at the
// verdict level for the probes' causes (an undecidable window, a cut-short wait, latency too high for
// the window; the probes that produce them are proven in load/ and cli/quota-bounds.e2e.test.ts).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listen, type RunningServer } from '../reference/index.ts';
import { unjudgedMust, type CheckResult, type Report } from '../report/model.ts';
import { scenarioChecks } from '../conformance/registry.ts';
import { CONFORM_DEFAULTS } from '../conformance/run.ts';
import { budgetCovering, minBudget } from '../conformance/runner/budget.ts';
import { fixtureReport } from '../testkit/report/fixtures.ts';
import { conformAction } from './conform.ts';
import { publishRun } from './publish.ts';

const KEY = 'petcert-incomplete-key-012345';
const PLANS = {
  windows: { minuteSeconds: 60, daySeconds: 86_400 },
  plans: { big: { perMinute: 10_000_000, perDay: 100_000_000 } },
};
const dir = mkdtempSync(join(tmpdir(), 'petcert-incomplete-'));
let reference: RunningServer;
let unknownCategories: RunningServer;
beforeAll(async () => {
  const common = { keys: { [KEY]: 'big' }, plans: PLANS, log: () => undefined };
  reference = await listen(common);
  // GAPS.md: a server may refuse categories it does not know; nothing in the store shows this one.
  unknownCategories = await listen({ ...common, variants: { categories: [987_654_321] } });
});
afterAll(async () => {
  await reference.close();
  await unknownCategories.close();
});

function capture() {
  const lines: string[] = [];
  return { out: { log: (s: string) => void lines.push(s), err: (s: string) => void lines.push(s) }, lines };
}

const readReport = (reportDir: string): Report =>
  JSON.parse(readFileSync(join(reportDir, 'latest', 'report.json'), 'utf8')) as Report;

async function conform(baseUrl: string, flags: Record<string, string>) {
  const reportDir = mkdtempSync(join(dir, 'conform-'));
  const c = capture();
  const code = await conformAction({ baseUrl, apiKey: KEY, failOn: 'must', reportDir, seed: '4', ...flags }, c.out);
  return { code, report: readReport(reportDir), out: c.lines.join('\n') };
}

describe('conform: a cause of "not run" against a real server → INCOMPLETE, exit 4, named with its fix', () => {
  test('a budget too small to give every check a run: "raise --budget to N", N the least that does', async () => {
    const needed = budgetCovering(scenarioChecks(), CONFORM_DEFAULTS.maxRuns);
    const { code, report, out } = await conform(reference.baseUrl, { budget: String(minBudget()) });
    expect(report.checks.filter((c) => c.outcome === 'fail')).toEqual([]);
    const budget = unjudgedMust(report).filter((c) => c.skipReason === 'the budget leaves no run for this check');
    expect(budget.length).toBeGreaterThan(0);
    expect(budget.every((c) => c.fix === `raise --budget to ${needed}`)).toBe(true);
    expect(code).toBe(4);
    expect(report.verdict).toBe('incomplete');
    expect(out).toMatch(/^INCOMPLETE {2}petcert conform /m);
    expect(out).toContain(`      fix: raise --budget to ${needed}`);
    for (const c of budget) expect(out).toContain(c.id);
  });

  test('every valid pet refused, no category id known: "pass --category-id N"', async () => {
    const { code, report, out } = await conform(unknownCategories.baseUrl, {});
    expect(report.checks.filter((c) => c.outcome === 'fail')).toEqual([]);
    const created = report.checks.find((c) => c.id === 'create.valid')!;
    expect(created).toMatchObject({ outcome: 'skip', skipKind: 'unjudged' });
    expect(created.skipReason).toMatch(
      /^\d+ run\(s\), none decided: every valid pet was refused and no category id is known to be accepted$/,
    );
    expect(created.fix).toMatch(/^pass --category-id N/);
    expect(code).toBe(4);
    expect(out).toMatch(
      /\? create\.valid: \d+ run\(s\), none decided: every valid pet was refused.*\n {6}fix: pass --category-id N/,
    );
    // With the category the server knows, the same checks are judged.
    const told = await conform(unknownCategories.baseUrl, { categoryId: '987654321' });
    expect(told.report.checks.find((c) => c.id === 'create.valid')?.outcome).toBe('pass');
  });
});

// The probes' causes, as the probes word them (load/probes: day.ts, minute.ts, run.ts).
const CAUSES: Array<[string, Partial<CheckResult>]> = [
  [
    'an undecidable window',
    {
      id: 'quota.day.exact[free]',
      skipReason:
        "the limiter's model is unknown and the day quota's answers do not show a fixed day window: an admitted answer reported Reset 1893468426, the day's 429 1893468470",
    },
  ],
  [
    'a cut-short wait',
    {
      id: 'quota.minute.exact[free]',
      skipReason: 'probe cut short: not waited: the wait for a window to end needs 2s, beyond the 1s any wait may take',
      fix: 'raise --max-wait if you lowered it (default: the longest window the plans allow), or give the run more time',
    },
  ],
  [
    'latency too high for the window',
    {
      id: 'quota.minute.exact[pro]',
      skipReason: 'the window ended twice before the count did: the target is too slow for this window length',
      fix: 'a longer minute window (plans file: windows.minuteSeconds) or a target closer to petcert',
    },
  ],
];

describe("the verdict for each of the probes' causes: INCOMPLETE, exit 4, the console naming it", () => {
  test.for(CAUSES)('%s', ([, skip]) => {
    const judged = fixtureReport().checks.filter((c) => c.outcome === 'pass');
    const unjudged: CheckResult = {
      title: 't',
      level: 'MUST',
      specRef: '§8.1',
      outcome: 'skip',
      failures: [],
      skipKind: 'unjudged',
      id: '',
      ...skip,
    };
    const report = fixtureReport({ checks: [...judged, unjudged] });
    const reportDir = mkdtempSync(join(dir, 'verdict-'));
    const c = capture();
    const code = publishRun(report, { reportDir, failOn: 'must', secrets: [], out: c.out });
    expect(code).toBe(4);
    const out = c.lines.join('\n');
    expect(out).toMatch(/^INCOMPLETE {2}petcert certify /);
    expect(out).toContain(`  ? ${unjudged.id}: ${unjudged.skipReason}`);
    if (unjudged.fix) expect(out).toContain(`      fix: ${unjudged.fix}`);
    expect(readReport(reportDir).verdict).toBe('incomplete');
    const junit = readFileSync(join(reportDir, 'latest', 'junit.xml'), 'utf8');
    expect(junit).toContain('<error message="1 MUST check(s) not judged');
    expect(junit).toContain('NOT JUDGED (a MUST check: the run cannot pass)');
    // --allow-incomplete: exit 0, and the report and the console say it was allowed.
    const allowed = capture();
    const allowedDir = mkdtempSync(join(dir, 'allowed-'));
    expect(
      publishRun(report, {
        reportDir: allowedDir,
        failOn: 'must',
        secrets: [],
        out: allowed.out,
        allowIncomplete: true,
      }),
    ).toBe(0);
    expect(allowed.lines[0]).toMatch(/^INCOMPLETE, allowed by --allow-incomplete {2}petcert certify /);
    expect(readReport(allowedDir)).toMatchObject({ verdict: 'incomplete', allowIncomplete: true });
  });
});
