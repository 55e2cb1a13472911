// `conform` told the key's plan: X-RateLimit-Limit is judged against the plan's figures
// (from the plans file, never restated), and without a plan the report says it was not judged. Also
// the coverage phase's command line: --list-cases, --case replay, usage errors.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConfigError } from '../core/errors.ts';
import { listen, type RunningServer } from '../reference/index.ts';
import { unjudgedMust, type Report } from '../report/model.ts';
import { parsePlansFile } from '../spec/plans.ts';
import { coverageCases } from '../conformance/coverage/cases.ts';
import { scenarioChecks } from '../conformance/registry.ts';
import { CONFORM_DEFAULTS } from '../conformance/run.ts';
import { budgetCovering } from '../conformance/runner/budget.ts';
import { faultRouter, VALID } from '../testkit/conformance/faults.ts';
import { conformAction, type ConformFlags } from './conform.ts';

// The specification's figures per plan (Enterprise's from the file), with 2-second minutes so a Free
// key's 60 per window paces a run in seconds: a window of one second is as coarse as the Date the pacing
// reads the server's clock by, too coarse for a run that must never meet a 429.
const PLANS_JSON = {
  windows: { minuteSeconds: 2, daySeconds: 40 },
  plans: { enterprise: { perMinute: 5000, perDay: 2_000_000 } },
};
const KEYS = {
  free: 'petcert-plan-free-0123456789',
  pro: 'petcert-plan-pro-0123456789',
  business: 'petcert-plan-business-012345',
  enterprise: 'petcert-plan-enterprise-0123',
} as const;
// More Free keys, one per concurrent test: runs sharing one key's 60 per window would wait on each other.
const FREE = {
  limit100: 'petcert-plan-free-limit100-01',
  noPlan: 'petcert-plan-free-no-plan-01',
  allowed: 'petcert-plan-free-allowed-01',
} as const;
const dir = mkdtempSync(join(tmpdir(), 'petcert-conform-plan-'));
const plansFile = join(dir, 'plans.json');
writeFileSync(plansFile, JSON.stringify(PLANS_JSON));

let server: RunningServer;
beforeAll(async () => {
  VALID.key = KEYS.free;
  const keys = {
    ...Object.fromEntries(Object.entries(KEYS).map(([plan, key]) => [key, plan])),
    ...Object.fromEntries(Object.values(FREE).map((key) => [key, 'free'])),
  };
  server = await listen({ keys, plans: parsePlansFile(PLANS_JSON), wrap: faultRouter, log: () => undefined });
});
afterAll(() => server.close());

function capture() {
  const lines: string[] = [];
  return { out: { log: (s: string) => void lines.push(s), err: (s: string) => void lines.push(s) }, lines };
}

const at = (route: string) => server.baseUrl.replace(/\/v1$/, `/${route}/v1`);

async function conform(flags: Partial<ConformFlags>): Promise<{ code: number; report: Report; lines: string[] }> {
  const reportDir = mkdtempSync(join(dir, 'run-'));
  const c = capture();
  // The least budget at which every check gets a run: a smaller one leaves MUST checks unjudged (exit 4).
  const budget = String(budgetCovering(scenarioChecks(), CONFORM_DEFAULTS.maxRuns));
  const code = await conformAction(
    { baseUrl: server.baseUrl, failOn: 'must', reportDir, budget, seed: '3', plans: plansFile, ...flags },
    c.out,
  );
  return {
    code,
    report: JSON.parse(readFileSync(join(reportDir, 'latest', 'report.json'), 'utf8')) as Report,
    lines: c.lines,
  };
}

const check = (r: Report, id: string) => r.checks.find((c) => c.id === id)!;

describe.concurrent('X-RateLimit-Limit judged against the plan', () => {
  test('the Limit=100 server fails conform --plan free (MUST, exit 1)', async () => {
    const { code, report } = await conform({ baseUrl: at('limitSays100'), apiKey: FREE.limit100, plan: 'free' });
    expect(code).toBe(1);
    expect(check(report, 'ratelimit.limit-of-plan').outcome).toBe('fail');
    expect(check(report, 'ratelimit.limit-of-plan').failures[0]!.message).toMatch(
      /X-RateLimit-Limit 100 is neither the free plan's 60 per minute nor its 1000 per day/,
    );
    expect(report.checks.filter((c) => c.outcome === 'fail').map((c) => c.id)).toEqual(['ratelimit.limit-of-plan']);
  });

  test.for(Object.keys(KEYS))('the reference server passes with the %s plan (--key PLAN=KEY)', async (plan) => {
    const { code, report } = await conform({ key: `${plan}=${KEYS[plan as keyof typeof KEYS]}` });
    expect(report.checks.filter((c) => c.outcome === 'fail').map((c) => c.id)).toEqual([]);
    expect(code).toBe(0);
    expect(check(report, 'ratelimit.limit-of-plan').outcome).toBe('pass');
  });

  // A MUST rule not judged is not a pass (docs/decisions/001). Without the plan the Limit rule still binds the
  // key, so the run is INCOMPLETE (exit 4), naming the check and the flag that lets it run.
  test('without a plan the Limit=100 server is not failed for it: INCOMPLETE (exit 4), the summary names the check and its fix', async () => {
    const { code, report, lines } = await conform({ baseUrl: at('limitSays100'), apiKey: FREE.noPlan });
    expect(code).toBe(4);
    expect(report.verdict).toBe('incomplete');
    expect(check(report, 'ratelimit.limit-of-plan')).toMatchObject({
      outcome: 'skip',
      skipKind: 'unjudged',
      fix: "give the key's plan: --key PLAN=KEY (or --plan NAME)",
    });
    expect(check(report, 'ratelimit.limit-of-plan').skipReason).toMatch(/no plan given .*not judged/);
    expect(lines).toContain('INCOMPLETE  petcert conform ' + at('limitSays100'));
    expect(lines.join('\n')).toMatch(
      /\? ratelimit\.limit-of-plan: no plan given \(--plan NAME or --key PLAN=KEY\): X-RateLimit-Limit values were not judged.*\n {6}fix: give the key's plan: --key PLAN=KEY \(or --plan NAME\)/,
    );
    expect(unjudgedMust(report).map((c) => c.id)).toEqual(['ratelimit.limit-of-plan']);
    // conform never exhausts the quota: Retry-After on 429 is quota's to judge, listed apart as not applicable.
    expect(check(report, 'ratelimit.retry-after')).toMatchObject({ outcome: 'skip', skipKind: 'not-applicable' });
    expect(lines.join('\n')).toMatch(
      /Not applicable to this run \(\d+, not counted against it\):\n(.*\n)*  · no 429 was answered: .*`petcert quota`.*:\n {6}ratelimit\.retry-after/,
    );
  });

  test('--allow-incomplete: the same run exits 0, and the report and the console say it was allowed', async () => {
    const { code, report, lines } = await conform({
      baseUrl: at('limitSays100'),
      apiKey: FREE.allowed,
      allowIncomplete: true,
    });
    expect(code).toBe(0);
    expect(report).toMatchObject({ verdict: 'incomplete', allowIncomplete: true });
    expect(lines).toContain(`INCOMPLETE, allowed by --allow-incomplete  petcert conform ${at('limitSays100')}`);
  });
});

describe('the coverage phase on the command line', () => {
  test('--list-cases prints every case with its check and rule, needing no target', async () => {
    const c = capture();
    expect(await conformAction({ failOn: 'must', listCases: true }, c.out)).toBe(0);
    expect(c.lines).toHaveLength(coverageCases().length + 1);
    expect(c.lines).toContain('NewPet.name:type=null\tcreate.invalid-value\tNewPet.name is a string: sent null (null)');
  });

  test('--case replays one case by name: the null-name server fails on it alone, the other checks say why they did not run', async () => {
    const { code, report, lines } = await conform({
      baseUrl: at('storesNullName'),
      apiKey: KEYS.free,
      case: ['NewPet.name:type=null'],
    });
    expect(code).toBe(1);
    const failed = check(report, 'create.invalid-value');
    expect(failed.failures.map((f) => f.message)).toEqual([
      'NewPet.name:type=null: POST /pets with an invalid body (NewPet.name is a string: sent null (null)): expected 400, got 201',
    ]);
    expect(failed.failures[0]!.counterexample).toMatchObject({
      case: 'NewPet.name:type=null',
      replay: '--case NewPet.name:type=null',
    });
    expect(check(report, 'create.valid').skipReason).toMatch(
      /only the coverage case\(s\) NewPet.name:type=null were replayed/,
    );
    // The preflight and the case, plus the identification's two (one without the key): counted, not hidden.
    expect(report.requests).toBeLessThanOrEqual(4);
    expect(lines.join('\n')).toMatch(/Coverage: 1 cases — 0 passed, 1 failed/);
  });

  test('usage errors (exit 2): an unknown case names its neighbours; --key with --api-key; an unknown or custom plan', async () => {
    await expect(conform({ apiKey: KEYS.free, case: ['NewPet.name:type=nul'] })).rejects.toThrow(
      /--case: no coverage case is named "NewPet.name:type=nul" \(cases starting alike: NewPet.name:type=null/,
    );
    await expect(conform({ apiKey: KEYS.free, key: `free=${KEYS.free}` })).rejects.toThrow(ConfigError);
    await expect(conform({ apiKey: KEYS.free, plan: 'gold' })).rejects.toThrow(/--plan: unknown plan "gold"/);
    await expect(conform({ apiKey: KEYS.free, plan: 'enterprise', plans: undefined })).rejects.toThrow(
      /--plan: plan "enterprise" has custom figures/,
    );
    await expect(conform({ key: `free=${KEYS.free}`, plan: 'pro' })).rejects.toThrow(/--plan: --key says plan "free"/);
  });
});
