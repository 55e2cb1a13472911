// `conform` told the key's plan (issue 12 §2): X-RateLimit-Limit is judged against the plan's figures
// (from the plans file, never restated), and without a plan the report says it was not judged. Also
// the coverage phase's command line: --list-cases, --case replay, usage errors.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConfigError } from '../core/errors.ts';
import { listen, type RunningServer } from '../reference/index.ts';
import type { Report } from '../report/model.ts';
import { parsePlansFile } from '../spec/plans.ts';
import { coverageCases } from '../conformance/coverage/cases.ts';
import { faultRouter, VALID } from '../testkit/conformance/faults.ts';
import { conformAction, type ConformFlags } from './conform.ts';

// The specification's figures per plan (Enterprise's from the file), with 1-second minutes so a Free
// key's 60 per window paces a run in seconds.
const PLANS_JSON = { windows: { minuteSeconds: 1, daySeconds: 40 }, plans: { enterprise: { perMinute: 5000, perDay: 2_000_000 } } };
const KEYS = { free: 'petcert-plan-free-0123456789', pro: 'petcert-plan-pro-0123456789', business: 'petcert-plan-business-012345', enterprise: 'petcert-plan-enterprise-0123' } as const;
const dir = mkdtempSync(join(tmpdir(), 'petcert-conform-plan-'));
const plansFile = join(dir, 'plans.json');
writeFileSync(plansFile, JSON.stringify(PLANS_JSON));

let server: RunningServer;
beforeAll(async () => {
  VALID.key = KEYS.free;
  const keys = Object.fromEntries(Object.entries(KEYS).map(([plan, key]) => [key, plan]));
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
  const code = await conformAction({ baseUrl: server.baseUrl, failOn: 'must', reportDir, budget: '200', seed: '3', plans: plansFile, ...flags }, c.out);
  return { code, report: JSON.parse(readFileSync(join(reportDir, 'latest', 'report.json'), 'utf8')) as Report, lines: c.lines };
}

const check = (r: Report, id: string) => r.checks.find((c) => c.id === id)!;

describe.concurrent('X-RateLimit-Limit judged against the plan', () => {
  test('the Limit=100 server fails conform --plan free (MUST, exit 1)', async () => {
    const { code, report } = await conform({ baseUrl: at('limitSays100'), apiKey: KEYS.free, plan: 'free' });
    expect(code).toBe(1);
    expect(check(report, 'ratelimit.limit-of-plan').outcome).toBe('fail');
    expect(check(report, 'ratelimit.limit-of-plan').failures[0]!.message).toMatch(/X-RateLimit-Limit 100 is neither the free plan's 60 per minute nor its 1000 per day/);
    expect(report.checks.filter((c) => c.outcome === 'fail').map((c) => c.id)).toEqual(['ratelimit.limit-of-plan']);
  });

  test.for(Object.keys(KEYS))('the reference server passes with the %s plan (--key PLAN=KEY)', async (plan) => {
    const { code, report } = await conform({ key: `${plan}=${KEYS[plan as keyof typeof KEYS]}` });
    expect(report.checks.filter((c) => c.outcome === 'fail').map((c) => c.id)).toEqual([]);
    expect(code).toBe(0);
    expect(check(report, 'ratelimit.limit-of-plan').outcome).toBe('pass');
  });

  test('without a plan the Limit=100 server is not failed for it, and the report and summary say Limit was not judged', async () => {
    const { code, report, lines } = await conform({ baseUrl: at('limitSays100'), apiKey: KEYS.free });
    expect(code).toBe(0);
    expect(check(report, 'ratelimit.limit-of-plan').outcome).toBe('skip');
    expect(check(report, 'ratelimit.limit-of-plan').skipReason).toMatch(/no plan given .*not judged/);
    expect(lines.join('\n')).toMatch(/ratelimit\.limit-of-plan: no plan given \(--plan NAME or --key PLAN=KEY\): X-RateLimit-Limit values were not judged/);
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
    const { code, report, lines } = await conform({ baseUrl: at('storesNullName'), apiKey: KEYS.free, case: ['NewPet.name:type=null'] });
    expect(code).toBe(1);
    const failed = check(report, 'create.invalid-value');
    expect(failed.failures.map((f) => f.message)).toEqual(['NewPet.name:type=null: POST /pets with an invalid body (NewPet.name is a string: sent null (null)): expected 400, got 201']);
    expect(failed.failures[0]!.counterexample).toMatchObject({ case: 'NewPet.name:type=null', replay: '--case NewPet.name:type=null' });
    expect(check(report, 'create.valid').skipReason).toMatch(/only the coverage case\(s\) NewPet.name:type=null were replayed/);
    // The preflight and the case, plus the identification's two (one without the key): counted, not hidden.
    expect(report.requests).toBeLessThanOrEqual(4);
    expect(lines.join('\n')).toMatch(/Coverage: 1 cases — 0 passed, 1 failed/);
  });

  test('usage errors (exit 2): an unknown case names its neighbours; --key with --api-key; an unknown or custom plan', async () => {
    await expect(conform({ apiKey: KEYS.free, case: ['NewPet.name:type=nul'] })).rejects.toThrow(/--case: no coverage case is named "NewPet.name:type=nul" \(cases starting alike: NewPet.name:type=null/);
    await expect(conform({ apiKey: KEYS.free, key: `free=${KEYS.free}` })).rejects.toThrow(ConfigError);
    await expect(conform({ apiKey: KEYS.free, plan: 'gold' })).rejects.toThrow(/--plan: unknown plan "gold"/);
    await expect(conform({ apiKey: KEYS.free, plan: 'enterprise', plans: undefined })).rejects.toThrow(/--plan: plan "enterprise" has custom figures/);
    await expect(conform({ key: `free=${KEYS.free}`, plan: 'pro' })).rejects.toThrow(/--plan: --key says plan "free"/);
  });
});
