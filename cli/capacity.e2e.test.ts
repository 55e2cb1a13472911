// `petcert capacity` end to end under the real k6: the knee of a latency proxy found within ±20 % for
// two configured rates; a limiter that 429s keys below quota under load fails the run (exit 1); with
// --no-canaries a correct fast target holds but the run is never a PASS (quota under load unjudged).
// The canaries' proofs (a correct server passes; over-admission and throttling under load fail) are in
// capacity-canary.e2e.test.ts. Without k6 these are skipped with a note locally, and fail in CI (CI=true).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { keysFileText } from '../load/capacity/keys-file.ts';
import { calibrate } from '../load/capacity/calibrate.ts';
import { documentFromEnv } from '../load/capacity/document.ts';
import type { Report } from '../report/model.ts';
import { keyPool } from '../reference/key-pool.ts';
import { listen, type RunningServer } from '../reference/index.ts';
import type { Handle } from '../reference/types.ts';
import { parsePlansFile } from '../spec/plans.ts';
import { throttlesBelowQuota } from '../testkit/capacity/faulty-limiters.ts';
import { CAPACITY_PLANS, capacityBed, eachK6 } from '../testkit/capacity/k6.ts';
import { latencyProxy } from '../testkit/capacity/latency-proxy.ts';
import { runCli } from '../testkit/cli/run-cli.ts';

const { dir, plansFile, script } = capacityBed('petcert-capacity-');
/** The k6 of the version row running now (eachK6). */
let k6: () => string | undefined = () => undefined;
const PLANS = CAPACITY_PLANS;

async function target(
  freeKeys: number,
  wrap?: (h: Handle) => Handle,
): Promise<{ server: RunningServer; keysFile: string }> {
  const keys = keyPool({ free: freeKeys });
  const server = await listen({ plans: parsePlansFile(PLANS), keys, ...(wrap ? { wrap } : {}) });
  const keysFile = join(dir, `keys-${server.port}.txt`);
  writeFileSync(keysFile, keysFileText(Object.entries(keys).map(([key, plan]) => ({ plan, key }))));
  return { server, keysFile };
}

async function capacity(
  baseUrl: string,
  keysFile: string,
  args: string[],
): Promise<{ code: number | null; report: Report; out: string }> {
  const reportDir = mkdtempSync(join(dir, 'reports-'));
  const run = await runCli(
    [
      'capacity',
      '--base-url',
      baseUrl,
      '--keys-file',
      keysFile,
      '--plans',
      plansFile,
      '--script',
      script(),
      '--report-dir',
      reportDir,
      '--step-seconds',
      '2',
      ...args,
    ],
    { env: { K6: k6() ?? '' }, timeoutMs: 150_000 },
  );
  const out = run.stdout + run.stderr;
  return {
    code: run.code,
    report: JSON.parse(readFileSync(join(reportDir, 'latest', 'report.json'), 'utf8')) as Report,
    out,
  };
}

const outcome = (report: Report, id: string) => report.checks.find((c) => c.id === id)?.outcome;

eachK6('petcert capacity', (row) => {
  beforeAll(() => void (k6 = row));
  // Planned 5 (or 10) customers × 20 req/s × 0.5 = 50 (or 100) req/s; steps of 25 % of it up to 2×;
  // the proxy adds 1 s above 1.1 × planned, between the 1.0× and 1.25× steps. The SLO (p95 < 600 ms)
  // sits far above what a loaded 2-core CI machine adds to a loopback answer and far below the
  // proxy's delay, so the knee found is the proxy's, never the machine's (p95 < 250 ms, the default,
  // broke one step early when another k6 test ran beside this one).
  it.for([
    { customers: 5, rate: 55 },
    { customers: 10, rate: 110 },
  ])('finds a latency knee at $rate req/s within ±20 %', { timeout: 180_000 }, async ({ customers, rate }) => {
    const { server, keysFile } = await target(2 * customers + 2);
    const proxy = await latencyProxy({ target: server.baseUrl, rate, delayMs: 1000 });
    try {
      const { code, report, out } = await capacity(proxy.baseUrl, keysFile, [
        '--mix',
        `free=${customers}`,
        '--utilisation',
        '0.5',
        '--no-canaries',
        '--slo',
        'p95<600ms,errors<0.5%',
      ]);
      const c = report.capacity!;
      console.log(
        `latency knee configured at ${rate} req/s: sustained ${c.sustainedRate}, breaking ${c.breakingRate}, generator ≥ ${c.generatorLimit} req/s`,
      );
      expect(c.breakingRate, out).not.toBeNull();
      expect(Math.abs(c.sustainedRate - rate) / rate, out).toBeLessThanOrEqual(0.2);
      expect(Math.abs(c.breakingRate! - rate) / rate, out).toBeLessThanOrEqual(0.2);
      expect(c.steps.filter((s) => s.verdict === 'slo').length, out).toBe(2); // stopped after two broken steps
      expect(
        c.steps.every((s) => s.below_quota_429 === 0),
        out,
      ).toBe(true);
      expect(outcome(report, 'capacity.headroom'), out).toBe('pass'); // headroom 1.0 ≥ the default --min-headroom 1
      // --no-canaries (their load would move the proxy's knee): quota under load unjudged, never a PASS:
      // INCOMPLETE, exit 4 (docs/decisions/001): the run finished, a MUST check was not judged.
      expect(report.aborted, out).toBeUndefined();
      expect(report.verdict, out).toBe('incomplete');
      expect(code, out).toBe(4);
    } finally {
      await proxy.close();
      await server.close();
    }
  });

  // A free canary here (40 per 2 s window) would need 67 req/s in a 40 req/s step: --no-canaries.
  const SMALL = ['--mix', 'free=4', '--utilisation', '0.5', '--steps', '3', '--max-factor', '1', '--no-canaries'];

  it(
    'a correct, fast target with --no-canaries: the load checks pass, the canaries are unjudged, INCOMPLETE (exit 4); --out passes through',
    { timeout: 120_000 },
    async () => {
      const { server, keysFile } = await target(4);
      const outputs = mkdtempSync(join(dir, 'k6-out-'));
      try {
        const { code, report, out } = await capacity(server.baseUrl, keysFile, [
          ...SMALL,
          '--out',
          `json=${join(outputs, 'k6.json')}`,
        ]);
        // k6's own output, one file per step process, its points tagged with the step (load/capacity/README.md).
        for (const [i, step] of report.capacity!.steps.entries()) {
          const lines = readFileSync(join(outputs, `k6-s${i + 1}.json`), 'utf8')
            .split('\n')
            .filter((l) => l.includes('"http_req_duration"'));
          type Point = { type: string; data: { tags?: Record<string, string> } };
          const points = lines
            .map((l) => JSON.parse(l) as Point)
            .filter((p) => p.type === 'Point' && p.data.tags?.step === String(i));
          expect(points.length, out).toBe(step.requests);
        }
        expect(
          report.checks.map((c) => [c.id, c.outcome, c.skipKind, c.fix]),
          out,
        ).toEqual([
          ['capacity.headroom', 'pass', undefined, undefined],
          ['capacity.quota.below-quota-429', 'pass', undefined, undefined],
          ['capacity.quota.canary-exact', 'skip', 'unjudged', 'run without --no-canaries'],
          ['capacity.quota.canary-retry-after', 'skip', 'unjudged', 'run without --no-canaries'],
        ]);
        expect(report.capacity!.steps.map((s) => s.verdict)).toEqual(['ok', 'ok', 'ok']);
        expect(code, out).toBe(4);
        expect(out).toMatch(
          /2 MUST checks not judged \(INCOMPLETE, exit 4\):\n  \? 2 checks: .*\n {6}capacity\.quota\.canary-exact, capacity\.quota\.canary-retry-after\n {6}fix: run without --no-canaries/,
        );
      } finally {
        await server.close();
      }
    },
  );

  it('fails a limiter that 429s keys below their quota under load (exit 1)', { timeout: 120_000 }, async () => {
    const { server, keysFile } = await target(4, throttlesBelowQuota(15));
    try {
      const { code, report, out } = await capacity(server.baseUrl, keysFile, SMALL);
      expect(code, out).toBe(1);
      expect(outcome(report, 'capacity.quota.below-quota-429'), out).toBe('fail');
      expect(report.capacity!.steps[0]!.below_quota_429, out).toBe(0); // 10 req/s: below the fault's 15
    } finally {
      await server.close();
    }
  });

  it(
    'never blames the target for the generator: k6 out of VUs is "generator-bound", exit 3',
    { timeout: 120_000 },
    async () => {
      // 50 ms per answer, well within the SLO; one VU per scenario sends at most ~20 req/s.
      const slow =
        (h: Handle): Handle =>
        async (req) => {
          await new Promise((r) => setTimeout(r, 50));
          return h(req);
        };
      const { server, keysFile } = await target(4, slow);
      try {
        const { code, report, out } = await capacity(server.baseUrl, keysFile, [...SMALL, '--max-vus', '1']);
        const c = report.capacity!;
        // At 25 req/s on a quiet machine; a loaded one's VU falls behind at 10 already. Either way the steps before
        // the generator's are the target's 'ok', and the last is the generator's, never the target's breaking point.
        const verdicts = c.steps.map((s) => s.verdict);
        expect(verdicts.at(-1), out).toBe('generator');
        expect(
          verdicts.slice(0, -1).every((v) => v === 'ok'),
          out,
        ).toBe(true);
        expect(c.breakingRate, out).toBeNull();
        expect(c.summary, out).toContain(`generator-bound at ${c.steps.at(-1)!.offeredRate} req/s; use --emit-testrun`);
        expect(report.aborted?.code, out).toBe('GENERATOR_BOUND');
        expect(outcome(report, 'capacity.headroom'), out).toBe('skip');
        expect(code, out).toBe(3);
      } finally {
        await server.close();
      }
    },
  );

  it(
    'calibration measures the generator against a trivial local target: kept up at 50 req/s, saturated with one VU at 5000',
    { timeout: 60_000 },
    async () => {
      const table = parsePlansFile({ plans: { bench: { perMinute: 1_000_000, perDay: 1_000_000_000 } } });
      const env = (rate: number, vus: string) => ({
        MIX: 'bench=1',
        UTILISATION: String((rate * 60) / 1_000_000),
        STEPS: '2',
        MAX_FACTOR: '1',
        MAX_VUS: vus,
        CANARIES: '0',
      });
      const doc = (rate: number, vus: string) =>
        documentFromEnv(env(rate, vus), 'http://127.0.0.1:9/v1', table, [{ plan: 'bench', key: 'k1' }]);
      const k6run = { k6: k6()!, script: script(), secrets: ['k1'] };
      const easy = await calibrate(k6run, doc(50, '1000'), 2);
      expect(easy).toMatchObject({ atLeast: true, offeredRate: 50 });
      const hard = await calibrate(k6run, doc(5000, '1'), 2);
      console.log(
        `calibration: 50 req/s offered → ${easy.achievedRate} (kept up); 5000 offered with 1 VU → ${hard.achievedRate}`,
      );
      expect(hard.atLeast).toBe(false);
      expect(hard.limit!).toBeLessThan(0.95 * 5000);
    },
  );
});
