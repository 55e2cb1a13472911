// certify's worst case (docs/decisions/006): conform's run timeout per conform key plus the quota probes' bound,
// and --max-wait reaching the quota runner.
import { describe, expect, test } from 'vitest';
import { CONFORM_DEFAULTS } from '../conformance/run.ts';
import { quotaBoundOf } from '../load/quota.ts';
import { fixtureReport } from '../testkit/report/fixtures.ts';
import { parsePlansFile } from '../spec/plans.ts';
import { certifyBound } from './certify-bound.ts';
import { certify, type QuotaRun } from './certify.ts';
import { EMBEDDED_WINDOWS } from './embedded.ts';

const plans = parsePlansFile({ windows: EMBEDDED_WINDOWS });
const keys = ['free', 'pro', 'business'].map((plan) => ({ plan, key: `k_${plan}` }));

describe('certifyBound', () => {
  test('conform keys × (run timeout + a request) + the quota bound', () => {
    const b = certifyBound({ conformKeys: keys, quotaKeys: keys, plans });
    expect(b.totalMs).toBe(
      3 * (CONFORM_DEFAULTS.runTimeoutMs + CONFORM_DEFAULTS.timeoutMs) + quotaBoundOf({ keys, plans }).totalMs,
    );
  });

  test('--max-wait lowers it; refused quota probes add nothing', () => {
    const full = certifyBound({ conformKeys: keys, quotaKeys: keys, plans }).totalMs;
    expect(certifyBound({ conformKeys: keys, quotaKeys: keys, plans, maxWaitMs: 1000 }).totalMs).toBeLessThan(full);
    expect(certifyBound({ conformKeys: keys, quotaKeys: keys, plans, quotaRefused: true }).totalMs).toBe(
      3 * (CONFORM_DEFAULTS.runTimeoutMs + CONFORM_DEFAULTS.timeoutMs),
    );
  });
});

test('certify hands --max-wait to the quota runner', async () => {
  let seen: QuotaRun | undefined;
  await certify(
    {
      baseUrl: 'http://127.0.0.1:9/v1',
      production: false,
      conformKeys: [],
      quotaKeys: keys,
      plans,
      version: '0',
      maxWaitMs: 7000,
    },
    {
      conform: async () => fixtureReport({ kind: 'conform' }),
      quota: async (o) => ((seen = o), fixtureReport({ kind: 'quota' })),
    },
  );
  expect(seen?.maxWaitMs).toBe(7000);
});
