// Every distinct cause shown (docs/decisions/002). One server with two faults on one check: X-RateLimit-Reset
// in milliseconds on every 201 (its number changes with every answer, so a cap of five kept by message alone
// fills with that one defect during the population phase) and Reset as a delta on every 400.
// One run reports both, one example of each before a second of either.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { listen, type Handle, type RunningServer } from '../reference/index.ts';
import { FAILURE_POLICY } from '../report/ledger.ts';
import { BIG_PLANS } from '../testkit/conformance/faults.ts';
import { mapHeader } from '../testkit/conformance/wraps.ts';
import { runConform } from './run.ts';

const KEY = 'petcert-causes-key-0123456789';
const RESET = 'x-ratelimit-reset';

const twoFaults =
  (handle: Handle): Handle =>
  async (req) => {
    const res = await handle(req);
    if (res.status === 201) return mapHeader(res, RESET, () => String(Date.now()));
    if (res.status === 400)
      return mapHeader(res, RESET, (v) => String(Math.max(1, Number(v) - Math.floor(Date.now() / 1000))));
    return res;
  };

let server: RunningServer;
beforeAll(async () => {
  server = await listen({ keys: { [KEY]: 'big' }, plans: BIG_PLANS, wrap: twoFaults, log: () => undefined });
});
afterAll(() => server.close());

test('two distinct faults on one check: both shown in one run, the first cause not filling the cap', async () => {
  const report = await runConform({
    baseUrl: server.baseUrl,
    apiKey: KEY,
    budget: 500,
    maxRuns: 20,
    seed: 1,
    plan: 'big',
    plans: BIG_PLANS,
  });
  const check = report.checks.find((c) => c.id === 'ratelimit.reset-timestamp')!;
  expect(check.outcome).toBe('fail');
  const shown = check.failures.map((f) => `${f.response?.status}: ${f.message}`);
  expect(
    shown.some((m) => /^201: Reset \d+ lies \d+ s after .*milliseconds\?$/.test(m)),
    shown.join('\n'),
  ).toBe(true);
  // (a coverage case's failure leads with the case's name; its cause is the defect's, not the case's)
  expect(
    shown.some((m) => /^400: (\S+: )?Reset \d+ lies \d+ s before .*a delta or a past time/.test(m)),
    shown.join('\n'),
  ).toBe(true);
  // The first cause alone had more failures than the cap: kept by message, it would have hidden the second.
  const causes = check.causes!;
  const millis = causes.find((c) => c.cause.startsWith('POST /v1/pets → 201: Reset N lies N s after'))!;
  expect(millis.count).toBeGreaterThan(FAILURE_POLICY.maxPerCheck);
  expect(causes.filter((c) => / → 400: Reset N lies N s before/.test(c.cause)).length).toBeGreaterThanOrEqual(1);
  // One example of every cause before a second of any: five causes here (the 201s; the 400s of four
  // operations), one failure each.
  expect(causes.map((c) => c.cause.replace(/: .*/, '')).sort()).toEqual([
    'GET /v1/pets/{petId} → 400',
    'GET /v1/pets?limit → 400',
    'GET /v1/pets?status → 400',
    'POST /v1/pets → 201',
    'POST /v1/pets → 400',
  ]);
  expect(check.failures).toHaveLength(causes.length);
});
