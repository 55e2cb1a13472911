// The CLI: exit codes, report files, the key never printed, --json on stdout.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ConfigError } from '../core/errors.ts';
import { listen, type RunningServer } from '../reference/index.ts';
import { conformAction } from './conform.ts';
import { scenarioChecks } from '../conformance/registry.ts';
import { CONFORM_DEFAULTS } from '../conformance/run.ts';
import { budgetCovering } from '../conformance/runner/budget.ts';
import { faultRouter, VALID } from '../testkit/conformance/faults.ts';

const KEY = 'petcert-cli-key-0123456789';
const plans = {
  windows: { minuteSeconds: 60, daySeconds: 86_400 },
  plans: { big: { perMinute: 10_000_000, perDay: 100_000_000 } },
};
// The key's plan and a budget that gives every check a run: a PASS needs every MUST check judged
// (docs/decisions/001), the Limit rule included, which needs the plan.
const plansFile = join(mkdtempSync(join(tmpdir(), 'petcert-conform-plans-')), 'plans.json');
writeFileSync(plansFile, JSON.stringify(plans));
const JUDGED = {
  plan: 'big',
  plans: plansFile,
  budget: String(budgetCovering(scenarioChecks(), CONFORM_DEFAULTS.maxRuns)),
};
let server: RunningServer;
beforeAll(async () => {
  VALID.key = KEY;
  server = await listen({ keys: { [KEY]: 'big' }, plans, wrap: faultRouter, log: () => undefined });
});
afterAll(() => server.close());

function capture() {
  const lines: string[] = [];
  const errs: string[] = [];
  return { out: { log: (s: string) => void lines.push(s), err: (s: string) => void errs.push(s) }, lines, errs };
}

test('a correct server: exit 0, report.json and junit.xml written, the key nowhere', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'petcert-conform-'));
  const c = capture();
  const code = await conformAction(
    { baseUrl: server.baseUrl, apiKey: KEY, failOn: 'must', reportDir: dir, seed: '5', ...JUDGED },
    c.out,
  );
  expect(code).toBe(0);
  const json = readFileSync(join(dir, 'latest', 'report.json'), 'utf8');
  expect(JSON.parse(json).seed).toBe(5);
  expect(readFileSync(join(dir, 'latest', 'junit.xml'), 'utf8')).toContain('<testsuite');
  expect(json + c.lines.join('\n')).not.toContain(KEY);
  expect(c.lines[0]).toMatch(/^PASS/);
});

test('--api-key env:NAME reads the key from the environment; the key is still nowhere in the output', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'petcert-conform-'));
  const c = capture();
  const flags = {
    baseUrl: server.baseUrl,
    apiKey: 'env:PETCERT_TEST_KEY',
    failOn: 'must',
    reportDir: dir,
    seed: '5',
    runTimeout: '60000',
    ...JUDGED,
  };
  expect(await conformAction(flags, c.out, { PETCERT_TEST_KEY: KEY })).toBe(0);
  expect(readFileSync(join(dir, 'latest', 'report.json'), 'utf8') + c.lines.join('\n')).not.toContain(KEY);
  await expect(conformAction(flags, c.out, {})).rejects.toThrow(
    /--api-key: environment variable PETCERT_TEST_KEY .* export PETCERT_TEST_KEY=/,
  );
  await expect(conformAction({ ...flags, apiKey: KEY, runTimeout: '0' }, c.out)).rejects.toThrow(
    /--run-timeout: must be an integer ≥ 1/,
  );
});

test('a faulty server: exit 1, the summary shows the counterexample, a curl repro with Bearer $API_KEY, and how to replay', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'petcert-conform-'));
  const c = capture();
  const code = await conformAction(
    {
      baseUrl: server.baseUrl.replace(/\/v1$/, '/acceptsAnyBearer/v1'),
      apiKey: KEY,
      failOn: 'must',
      reportDir: dir,
      budget: '200',
      seed: '5',
      json: true,
    },
    c.out,
  );
  expect(code).toBe(1);
  expect(JSON.parse(c.lines.join('\n')).checks.length).toBeGreaterThan(30); // --json: stdout is the report
  const summary = c.errs.join('\n');
  expect(summary).toContain('✗ auth.invalid-credentials');
  expect(summary).toMatch(/counterexample: /);
  expect(summary).toMatch(/repro: curl /);
  expect(summary).toContain('--seed 5');
  expect(summary + c.lines.join('\n')).not.toContain(KEY);
});

test('usage errors are ConfigErrors (exit 2)', async () => {
  const c = capture();
  await expect(
    conformAction({ baseUrl: 'http://127.0.0.1:1/api', apiKey: KEY, failOn: 'must' }, c.out),
  ).rejects.toThrow(ConfigError);
  await expect(conformAction({ baseUrl: server.baseUrl, apiKey: KEY, failOn: 'all' }, c.out)).rejects.toThrow(
    /--fail-on/,
  );
  await expect(
    conformAction({ baseUrl: server.baseUrl, apiKey: KEY, failOn: 'must', budget: '5' }, c.out),
  ).rejects.toThrow(/--budget/);
  await expect(conformAction({ baseUrl: server.baseUrl, failOn: 'must' }, c.out)).rejects.toThrow(/--api-key/);
});

test('a dead target: exit 3 with a report saying UNREACHABLE', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'petcert-conform-'));
  const c = capture();
  const code = await conformAction(
    { baseUrl: 'http://127.0.0.1:9/v1', apiKey: KEY, failOn: 'must', reportDir: dir },
    c.out,
  );
  expect(code).toBe(3);
  expect(JSON.parse(readFileSync(join(dir, 'latest', 'report.json'), 'utf8')).aborted.code).toBe('UNREACHABLE');
});
