// Percentiles merged exactly (load/capacity/README.md), under the real k6: N = 1, 2, 3 runners on execution
// segments against one server, each with k6's own per-request output (`--out json=…`) as the oracle.
// `petcert capacity merge` reads the runners' logs and reports each step's p50/p95/p99 from their
// merged histograms: each within 1 % of the value k6's rule gives over every sample of every runner.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { keysFileText } from '../load/capacity/keys-file.ts';
import { parseRunnerResults } from '../load/capacity/result.ts';
import { runK6Process } from '../load/k6-process.ts';
import { exactPercentile, RELATIVE_ERROR } from '../load/shared/histogram.ts';
import type { Report } from '../report/model.ts';
import { keyPool } from '../reference/key-pool.ts';
import { listen } from '../reference/index.ts';
import { parsePlansFile } from '../spec/plans.ts';
import { CAPACITY_PLANS, capacityBed, eachK6 } from '../testkit/capacity/k6.ts';
import { runCli } from '../testkit/cli/run-cli.ts';

const { dir, plansFile, script } = capacityBed('petcert-capacity-histogram-');
let k6: () => string | undefined = () => undefined;

/** Every http_req_duration sample of each load step (k6's JSON output: one JSON object per line). */
function samplesByStep(files: readonly string[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const file of files) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.includes('"http_req_duration"')) continue;
      const point = JSON.parse(line) as {
        type: string;
        metric: string;
        data: { value: number; tags?: Record<string, string> };
      };
      const step = point.data.tags?.step;
      if (point.type !== 'Point' || step === undefined || !/^\d+$/.test(step)) continue;
      out.set(step, [...(out.get(step) ?? []), point.data.value]);
    }
  }
  return out;
}

eachK6('merged percentiles', (row) => {
  beforeAll(() => void (k6 = row));

  it.for([1, 2, 3])(
    "%i runner(s): every step's p50/p95/p99 within 1 % of all samples' (k6 --out json)",
    { timeout: 90_000 },
    async (n) => {
      const keys = keyPool({ free: 12 });
      const server = await listen({ plans: parsePlansFile(CAPACITY_PLANS), keys });
      const keysFile = join(dir, `keys-${server.port}.txt`);
      writeFileSync(keysFile, keysFileText(Object.entries(keys).map(([key, plan]) => ({ plan, key }))));
      const work = mkdtempSync(join(dir, `n${n}-`));
      try {
        // 25 and 50 req/s over 2-second steps: a few hundred samples per step, spread over the runners.
        const env = {
          BASE_URL: server.baseUrl,
          KEYS_FILE: keysFile,
          PLANS_FILE: plansFile,
          MIX: 'free=5',
          UTILISATION: '0.5',
          STEPS: '2',
          MAX_FACTOR: '1',
          STEP_SECONDS: '2',
          CANARIES: '0',
        };
        const segments = Array.from({ length: n }, (_, i) => `${i}/${n}:${i + 1}/${n}`);
        const sequence = ['--execution-segment-sequence', ['0', ...segments.map((_, i) => `${i + 1}/${n}`)].join(',')];
        const runs = await Promise.all(
          segments.map((segment, i) => {
            const args = [
              'run',
              '--quiet',
              '--log-format',
              'raw',
              '--out',
              `json=${join(work, `k6-${i}.json`)}`,
              ...(n > 1 ? ['--execution-segment', segment, ...sequence] : []),
              script(),
            ];
            return runK6Process({ k6: k6()!, args, env, timeoutMs: 60_000 });
          }),
        );
        runs.forEach((r, i) => writeFileSync(join(work, `runner-${i}.log`), r.stdout + r.stderr));
        const reportDir = join(work, 'reports');
        const merged = await runCli(
          ['capacity', 'merge', ...runs.map((_, i) => join(work, `runner-${i}.log`)), '--report-dir', reportDir],
          { timeoutMs: 30_000 },
        );
        const report = JSON.parse(readFileSync(join(reportDir, 'latest', 'report.json'), 'utf8')) as Report;
        const samples = samplesByStep(runs.map((_, i) => join(work, `k6-${i}.json`)));
        /** What merge reported before histograms: the largest runner's percentile (an upper bound). */
        const runnerSteps = runs.flatMap((r) => parseRunnerResults(r.stdout, 'k6')).map((r) => r.steps);
        const upperBound = (i: number, p: string) =>
          Math.max(...runnerSteps.map((steps) => steps[i]?.percentilesMs[p] ?? -Infinity));
        const why = `${merged.stdout}${merged.stderr}\n${runs.map((r) => r.stderr.slice(-1000)).join('\n')}`;
        expect(report.capacity!.steps, why).toHaveLength(2);
        report.capacity!.steps.forEach((step, i) => {
          const all = samples.get(String(i)) ?? [];
          expect(step.requests, why).toBe(all.length);
          expect(step.percentiles).toBe(n === 1 ? 'exact' : 'histogram');
          const line = ['50', '95', '99'].map((p) => {
            const exact = exactPercentile(all, Number(p))!;
            const got = step.percentilesMs[p]!;
            expect(
              Math.abs(got - exact),
              `step ${i} p${p}: merged ${got} vs exact ${exact}\n${why}`,
            ).toBeLessThanOrEqual(RELATIVE_ERROR * exact + 1e-9);
            const off = (v: number) => `${((100 * (v - exact)) / exact).toFixed(2)} %`;
            return `p${p} ${got.toFixed(3)} vs ${exact.toFixed(3)} ms (${off(got)}; largest runner's ${off(upperBound(i, p))})`;
          });
          console.log(`${n} runner(s), step ${i + 1} (${all.length} samples): ${line.join(', ')}`);
        });
      } finally {
        await server.close();
      }
    },
  );
});
