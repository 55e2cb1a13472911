// Canaries that can always judge (load/capacity/README.md, step 5), end to end under the real k6: the mix holds only the
// largest plan (business), the steps (4 s: k6 starting VUs drops a few iterations at a step's start, a
// small share of a 4 s step on a loaded machine) are shorter than the server's window (8 s), and the limiters
// go wrong only under aggregate load (above 100 req/s; the planned step offers 175). A spare free key,
// outside the mix, is the canary: it catches over-admission by 10 % and by one request per window, and
// a limiter that 429s below quota under load; a correct server passes; without the free key the run is
// refused before any load, naming what is needed.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { keysFileText } from '../load/capacity/keys-file.ts';
import type { Report } from '../report/model.ts';
import { listen, type RunningServer } from '../reference/index.ts';
import type { Handle } from '../reference/types.ts';
import { parsePlansFile } from '../spec/plans.ts';
import { overAdmits, overAdmitsBy, throttlesBelowQuota } from '../testkit/capacity/faulty-limiters.ts';
import { capacityBed, eachK6 } from '../testkit/capacity/k6.ts';
import { runCli } from '../testkit/cli/run-cli.ts';

const { dir, script } = capacityBed('petcert-capacity-canary-');
let k6: () => string | undefined = () => undefined;
/** 4-second windows: a free key allows 20 per window (5 req/s), a business key 2,000 (500 req/s). */
const PLANS = {
  windows: { minuteSeconds: 8, daySeconds: 3600 },
  plans: { free: { perMinute: 20, perDay: 100_000 }, business: { perMinute: 4000, perDay: 10_000_000 } },
};
/** Planned 4000 × 0.35 / 8 s = 175 req/s; steps 43.75 and 175; the canary may add 20 % = 35 req/s. */
const RUN = [
  '--mix',
  'business=1',
  '--utilisation',
  '0.35',
  '--steps',
  '2',
  '--max-factor',
  '1',
  '--step-seconds',
  '4',
];
/** Far above what a loaded machine adds to a loopback answer: these tests are about quota, not latency. */
const LAX_SLO = ['--slo', 'p99<3000ms,errors<5%', '--no-calibrate'];
const BUSY = 100;

async function target(
  keys: Record<string, string>,
  wrap?: (h: Handle) => Handle,
): Promise<{ server: RunningServer; keysFile: string }> {
  const server = await listen({ plans: parsePlansFile(PLANS), keys, ...(wrap ? { wrap } : {}) });
  const keysFile = join(dir, `keys-${server.port}.txt`);
  writeFileSync(keysFile, keysFileText(Object.entries(keys).map(([key, plan]) => ({ plan, key }))));
  return { server, keysFile };
}

const WITH_FREE = { 'business-load': 'business', 'free-spare': 'free' };

async function capacity(wrap?: (h: Handle) => Handle, keys: Record<string, string> = WITH_FREE) {
  const { server, keysFile } = await target(keys, wrap);
  const plansFile = join(dir, 'plans-canary.json');
  writeFileSync(plansFile, JSON.stringify(PLANS));
  const reportDir = mkdtempSync(join(dir, 'reports-'));
  try {
    const args = [
      'capacity',
      '--base-url',
      server.baseUrl,
      '--keys-file',
      keysFile,
      '--plans',
      plansFile,
      '--script',
      script(),
      '--report-dir',
      reportDir,
      ...RUN,
      ...LAX_SLO,
    ];
    const run = await runCli(args, { env: { K6: k6() ?? '' }, timeoutMs: 120_000 });
    const out = run.stdout + run.stderr;
    const report =
      run.code === 2
        ? undefined
        : (JSON.parse(readFileSync(join(reportDir, 'latest', 'report.json'), 'utf8')) as Report);
    return { code: run.code, out, report };
  } finally {
    await server.close();
  }
}

const outcome = (report: Report | undefined, id: string) => report?.checks.find((c) => c.id === id)?.outcome;

eachK6('capacity canaries', (row) => {
  beforeAll(() => void (k6 = row));

  it(
    'a correct server passes: the free canary crosses its quota in a 4 s step of an 8 s window, exactly',
    { timeout: 150_000 },
    async () => {
      const { code, out, report } = await capacity();
      expect(
        report!.capacity!.canaries!.map((c) => c.plan),
        out,
      ).toEqual(['free']);
      expect(outcome(report, 'capacity.quota.canary-exact'), out).toBe('pass');
      expect(outcome(report, 'capacity.quota.canary-retry-after'), out).toBe('pass');
      expect(code, out).toBe(0);
    },
  );

  it.for([
    {
      fault: 'over-admits by 10 % under load',
      wrap: overAdmitsBy(BUSY, (q) => Math.ceil(q / 10)),
      check: 'capacity.quota.canary-exact',
    },
    {
      fault: 'over-admits by one request per window under load',
      wrap: overAdmitsBy(BUSY, () => 1),
      check: 'capacity.quota.canary-exact',
    },
    { fault: 'stops counting under load', wrap: overAdmits(BUSY), check: 'capacity.quota.canary-exact' },
    // The load key, at 90 % of its quota, is refused too: whichever check sees the 429s first fails the run.
    {
      fault: '429s below quota under load',
      wrap: throttlesBelowQuota(BUSY),
      check: ['capacity.quota.canary-exact', 'capacity.quota.below-quota-429'],
    },
  ])('fails a limiter that $fault (exit 1)', { timeout: 150_000 }, async ({ wrap, check }) => {
    const { code, out, report } = await capacity(wrap);
    const checks = [check].flat();
    expect(
      checks.map((id) => outcome(report, id)),
      out,
    ).toContain('fail');
    expect(code, out).toBe(1);
  });

  it('no spare key that can judge: exit 2 before any load, naming what is needed', { timeout: 60_000 }, async () => {
    const { code, out } = await capacity(undefined, { 'business-load': 'business', 'business-spare': 'business' });
    expect(out).toMatch(/no canary can cross its quota during step 2 \(175 req\/s, 4 s\)/);
    expect(out).toMatch(/needs one spare free key/);
    expect(code, out).toBe(2);
  });
});
