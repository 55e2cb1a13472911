// handleSummary's two shapes under the real k6 (every pinned version): the legacy one (default) and the
// machine-readable one of `--new-machine-readable-summary`, which has no thresholds. load/shared/summary.ts
// reads both into the same PETCERT_SUMMARY line: the same checks and metrics; `passed` true/false in the
// legacy shape, false or null (k6's exit code decides) in the machine-readable one.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceFaults } from '../reference/index.ts';
import { parsePlansFile } from '../spec/plans.ts';
import { buildBundles } from '../testkit/k6/bundles.ts';
import { countingServer } from '../testkit/k6/counting-server.ts';
import { K6_UNDER_TEST, k6Output, runK6, type K6UnderTest } from '../testkit/k6/k6.ts';

const dir = mkdtempSync(join(tmpdir(), 'petcert-k6-summary-'));
let dist = '';
const TABLE = {
  windows: { minuteSeconds: 2, daySeconds: 12 },
  plans: { free: { perMinute: 3, perDay: 14 }, pro: { perMinute: 5, perDay: 24 } },
};
const keys = { pc_free_sum_aaaaaaaaaa: 'free', pc_pro_sum_bbbbbbbbbbb: 'pro' };

beforeAll(async () => {
  dist = await buildBundles();
  writeFileSync(join(dir, 'plans.json'), JSON.stringify(TABLE));
}, 60_000);

async function headerAccuracy(k6: K6UnderTest, args: string[], faults: ReferenceFaults = {}) {
  const server = await countingServer({ plans: parsePlansFile(TABLE), keys, faults });
  try {
    const env = {
      BASE_URL: server.baseUrl,
      KEYS: Object.entries(keys)
        .map(([k, p]) => `${p}=${k}`)
        .join(','),
      PLANS_FILE: join(dir, 'plans.json'),
    };
    return await runK6(k6, [...args, join(dist, 'header-accuracy.js')], { env, timeoutMs: 60_000 });
  } finally {
    await server.close();
  }
}

describe.each(K6_UNDER_TEST)('$title', (k6) => {
  it.skipIf(k6.skip)(
    'reads the legacy and the machine-readable shape into the same checks and metrics',
    { timeout: 60_000 },
    async () => {
      const [legacy, machine] = [
        await headerAccuracy(k6, []),
        await headerAccuracy(k6, ['--new-machine-readable-summary']),
      ];
      for (const run of [legacy, machine]) {
        expect(run.code, k6Output(run)).toBe(0);
        expect(run.summaries, k6Output(run)).toHaveLength(1);
      }
      const [l, m] = [legacy.summaries[0]!, machine.summaries[0]!];
      expect(l).toMatchObject({
        k6Summary: 'legacy',
        passed: true,
        thresholds: { 'checks: rate==1': true, 'http_reqs: count>0': true },
      });
      expect(m).toMatchObject({ k6Summary: 'machine-readable', passed: null, thresholds: null });
      expect(m.checks).toEqual(l.checks);
      expect(m.checks.length).toBeGreaterThan(0);
      for (const s of [l, m]) {
        expect(s.durationMs).toBeGreaterThan(0);
        expect(s.metrics.http_reqs?.count).toBeGreaterThan(0);
        expect(s.metrics.http_req_duration).toEqual(
          expect.objectContaining({ avg: expect.any(Number), 'p(95)': expect.any(Number) }),
        );
        expect(s.metrics.http_req_failed).toEqual(
          expect.objectContaining({ rate: expect.any(Number), passes: expect.any(Number), fails: expect.any(Number) }),
        );
      }
      expect(m.metrics.http_reqs?.count).toBe(l.metrics.http_reqs?.count);
      expect(machine.stdout).toMatch(/header-accuracy: checks passed \(thresholds: see the exit code\)/);
    },
  );

  it.skipIf(k6.skip)(
    'a failing run reads as failed in the machine-readable shape too (exit 99, passed false)',
    { timeout: 60_000 },
    async () => {
      const run = await headerAccuracy(k6, ['--new-machine-readable-summary'], { overAdmit: 1 });
      expect(run.code, k6Output(run)).toBe(99);
      expect(run.summaries[0]).toMatchObject({ k6Summary: 'machine-readable', passed: false });
      expect(run.summaries[0]!.checks.filter((c) => c.fails > 0).map((c) => c.name)).toContain(
        'quota.burst.exact[free]',
      );
    },
  );
});
