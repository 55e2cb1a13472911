// No silent pass, under the real k6 (every pinned version). k6 itself exits 0 when a script sends
// nothing, when its iterations throw, and when handleSummary cannot write its file (first block: if a k6
// release changes that, this says so). petcert's scripts exit non-zero in each case (load/k6/lib/guards.ts),
// never claim a summary file they have not checked, and refuse a command line that replaced their
// scenarios (k6 v2.1+: `--vus N` alone does).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePlansFile } from '../spec/plans.ts';
import { k6Scripts } from '../scripts/build-k6.ts';
import { buildBundles } from '../testkit/k6/bundles.ts';
import { countingServer, type CountingServer, type Received } from '../testkit/k6/counting-server.ts';
import { K6_UNDER_TEST, k6Output, runK6, type K6UnderTest } from '../testkit/k6/k6.ts';

const dir = mkdtempSync(join(tmpdir(), 'petcert-k6-guards-'));
let dist = '';
const TABLE = {
  windows: { minuteSeconds: 2, daySeconds: 12 },
  plans: { free: { perMinute: 3, perDay: 14 }, pro: { perMinute: 5, perDay: 24 } },
};
const keys = { pc_free_guard_aaaaaaaaaa: 'free', pc_pro_guard_bbbbbbbbbbb: 'pro' };
const KEYS = Object.entries(keys)
  .map(([k, p]) => `${p}=${k}`)
  .join(',');
const GENEROUS = {
  windows: { minuteSeconds: 60, daySeconds: 86_400 },
  plans: { free: { perMinute: 10_000, perDay: 1e6 }, pro: { perMinute: 10_000, perDay: 1e6 } },
};
let server: CountingServer;

beforeAll(async () => {
  dist = await buildBundles();
  writeFileSync(join(dir, 'plans.json'), JSON.stringify(TABLE));
  writeFileSync(join(dir, 'plans-capacity.json'), JSON.stringify(GENEROUS));
  // Generous quotas: these runs are about exit codes, and share one server.
  server = await countingServer({ plans: parsePlansFile(GENEROUS), keys });
}, 60_000);
afterAll(() => server?.close());

const fixture = (k6: K6UnderTest, env: Record<string, string>, cwd?: string) =>
  runK6(k6, [join(dist, 'engine.js')], { env: { URL: `${server.baseUrl}/pets?limit=1`, ...env }, cwd });

/** Requests the shared server receives while `body` runs. */
/**
 * Requests the server handled while `body` ran that `mine` claims: on a loaded machine the server's loop can
 * handle the last requests of an earlier test's k6 after that k6 has exited, inside this window.
 */
async function requestsDuring<T>(body: () => Promise<T>, mine: (r: Received) => boolean): Promise<[T, number]> {
  const before = server.received.length;
  const result = await body();
  return [result, server.received.slice(before).filter(mine).length];
}

/** header-accuracy: the quickest probe bundle (one burst); its own fresh server, whose quota it spends. */
async function headerAccuracy(k6: K6UnderTest, env: Record<string, string> = {}, args: string[] = [], cwd?: string) {
  const own = await countingServer({ plans: parsePlansFile(TABLE), keys });
  try {
    const run = await runK6(k6, [...args, join(dist, 'header-accuracy.js')], {
      env: { BASE_URL: own.baseUrl, KEYS, PLANS_FILE: join(dir, 'plans.json'), ...env },
      cwd,
      timeoutMs: 60_000,
    });
    return { ...run, received: own.received.length };
  } finally {
    await own.close();
  }
}

describe.each(K6_UNDER_TEST)('$title', (k6) => {
  describe.skipIf(k6.skip)('k6 alone passes what proved nothing (why the guards exist)', () => {
    it('exits 0 when the iterations send nothing, and when they throw', async () => {
      expect((await fixture(k6, { MODE: 'nothing' })).code).toBe(0);
      const thrown = await fixture(k6, { MODE: 'throw' });
      expect(thrown.code, k6Output(thrown)).toBe(0);
      expect(thrown.stderr).toContain('fixture: thrown on purpose');
    });

    it('exits 0 when handleSummary names a folder that does not exist, and writes nothing', async () => {
      const missing = join(dir, `missing-${k6.version}`);
      const run = await fixture(k6, { REPORT_DIR: missing });
      expect(run.code, k6Output(run)).toBe(0);
      expect(run.stderr).toMatch(/failed to handle the end-of-test summary/);
      expect(existsSync(missing)).toBe(false);
    });
  });

  describe.skipIf(k6.skip)('with the guards', () => {
    it('every shipped bundle carries the http_reqs count>0 threshold, as k6 itself reads its options', () => {
      const scripts = k6Scripts().map((f) => f.replace(/\.ts$/, '.js'));
      expect(scripts.length).toBeGreaterThanOrEqual(6);
      for (const script of scripts) {
        const run = spawnSync(k6.path!, ['inspect', '-e', `KEYS=${KEYS}`, join(dist, script)], {
          encoding: 'utf8',
          timeout: 30_000,
        });
        expect(run.status, `${script}: ${run.stderr}`).toBe(0);
        const options = JSON.parse(run.stdout) as { thresholds?: Record<string, string[]> };
        expect(
          options.thresholds?.['http_reqs'] ?? [],
          `${script} sends nothing and still passes without it`,
        ).toContain('count>0');
      }
    });

    it('a script that sends no request fails its http_reqs threshold: exit code 99', async () => {
      const run = await fixture(k6, { MODE: 'nothing', GUARD: '1' });
      expect(run.code, k6Output(run)).toBe(99);
      expect(run.stderr).toMatch(/thresholds on metrics 'http_reqs' have been crossed/);
    });

    it('an iteration that throws aborts the test: exit code 108, the error named', async () => {
      const run = await fixture(k6, { MODE: 'throw', GUARD: '1' });
      expect(run.code, k6Output(run)).toBe(108);
      expect(run.stderr).toMatch(/fixture: an iteration threw \(fixture: thrown on purpose\)/);
    });

    // The capacity bundle guards its load iteration in place and its canary's in the cold path (each
    // function guarded() makes is an object in every VU): the built text is edited so that the load
    // request, then the canary's, throws.
    // The canary: the free key spare (MIX holds pro only), free's quota 20 a 2 s window, so it can cross it.
    const canaryTable = {
      windows: { minuteSeconds: 2, daySeconds: 86_400 },
      plans: { ...GENEROUS.plans, free: { perMinute: 20, perDay: 1e6 } },
    };
    it.for([
      ['load', 'const res = await request(', 'capacity', {}],
      [
        'canary',
        'const res = await canaryRequest(',
        'capacity canary',
        { MIX: 'pro=1', UTILISATION: '0.1', PLANS_FILE: join(dir, 'plans-canary.json') },
      ],
    ] as const)(
      "the capacity bundle's %s iteration that throws aborts the test: exit code 108, the error named",
      async ([, call, script, extra]) => {
        writeFileSync(join(dir, 'plans-canary.json'), JSON.stringify(canaryTable));
        const text = readFileSync(join(dist, 'capacity.js'), 'utf8');
        expect(text).toContain(call);
        const broken = join(dir, `capacity-throws-${script.replace(' ', '-')}.js`);
        writeFileSync(
          broken,
          text.replace(call, 'const res = await Promise.reject(new Error("thrown on purpose")) ?? ('),
        );
        const env = {
          BASE_URL: server.baseUrl,
          KEYS,
          PLANS_FILE: join(dir, 'plans-capacity.json'),
          STEP_SECONDS: '2',
          STEPS: '2',
          ...extra,
        };
        const run = await runK6(k6, [broken], { env, timeoutMs: 60_000 });
        expect(run.code, k6Output(run)).toBe(108);
        expect(run.stderr).toContain(`${script}: an iteration threw (thrown on purpose)`);
      },
    );

    it('a real bundle whose iterations throw (key-split on a segment that holds no key) exits 108', async () => {
      const [run, received] = await requestsDuring(
        () =>
          runK6(
            k6,
            ['--execution-segment', '2/3:1', '--execution-segment-sequence', '0,1/3,2/3,1', join(dist, 'key-split.js')],
            { env: { BASE_URL: server.baseUrl, KEYS, RATE: '5', DURATION: '1s' } },
          ),
        // Every request key-split sends names its segment; no other bundle sends the header.
        (r) => r.segment !== undefined,
      );
      expect(run.code, k6Output(run)).toBe(108);
      expect(run.stderr).toMatch(/segment 2\/3:1 holds none of the 2 keys/);
      expect(received).toBe(0);
    });
  });

  // handleSummary into a folder that does not exist must not say "summary written to …" and exit 0
  // (the default `reports/` of any fresh working directory, e.g. a k6-operator runner pod).
  describe.skipIf(k6.skip)('the summary is never claimed where it is not', () => {
    it('without REPORT_DIR: on stdout as one PETCERT_SUMMARY line, and no file anywhere', async () => {
      const cwd = mkdtempSync(join(tmpdir(), 'petcert-k6-cwd-'));
      const run = await headerAccuracy(k6, {}, [], cwd);
      expect(run.code, k6Output(run)).toBe(0);
      expect(run.summaries).toHaveLength(1);
      expect(run.summaries[0]).toMatchObject({ script: 'header-accuracy', passed: true });
      expect(readdirSync(cwd)).toEqual([]);
      expect(run.stdout).not.toMatch(/written to/);
      expect(run.stderr).not.toMatch(/failed to handle the end-of-test summary/);
    });

    it('REPORT_DIR that does not exist: refused at init (exit 107) before any request, no file claimed', async () => {
      const missing = join(dir, `reports-${k6.version}`);
      const run = await headerAccuracy(k6, { REPORT_DIR: missing });
      expect(run.code, k6Output(run)).toBe(107);
      expect(run.received).toBe(0);
      expect(run.stderr).toContain(`REPORT_DIR=${missing} cannot be used`);
      expect(run.stdout).not.toContain(missing);
      expect(existsSync(missing)).toBe(false);
    });

    it('REPORT_DIR that is relative, or a file: refused at init (exit 107)', async () => {
      const cwd = mkdtempSync(join(tmpdir(), 'petcert-k6-cwd-'));
      mkdirSync(join(cwd, 'reports'));
      const relative = await headerAccuracy(k6, { REPORT_DIR: 'reports' }, [], cwd);
      expect(relative.code, k6Output(relative)).toBe(107);
      expect(relative.stderr).toContain('REPORT_DIR=reports is relative');
      expect(readdirSync(join(cwd, 'reports'))).toEqual([]);
      const file = await headerAccuracy(k6, { REPORT_DIR: join(dir, 'plans.json') });
      expect(file.code, k6Output(file)).toBe(107);
      expect(file.stderr).toContain('is a file, not a folder');
    });

    it('REPORT_DIR that exists: the file holds the same summary as the stdout line, without keys', async () => {
      const reports = mkdtempSync(join(tmpdir(), 'petcert-k6-reports-'));
      const run = await headerAccuracy(k6, { REPORT_DIR: reports });
      expect(run.code, k6Output(run)).toBe(0);
      const text = readFileSync(join(reports, 'k6-header-accuracy.json'), 'utf8');
      expect(JSON.parse(text)).toEqual(run.summaries[0]);
      for (const key of Object.keys(keys)) expect(text + run.stdout).not.toContain(key);
    });
  });

  describe.skipIf(k6.skip)('a command line that replaces the scenarios is refused', () => {
    it(
      k6.version.startsWith('v1.')
        ? '--vus 2 alone leaves the scenarios in k6 v1: the run is the script’s own'
        : '--vus 2 alone replaces the scenarios since k6 v2.1: refused in setup (exit 108), no request sent',
      async () => {
        const run = await headerAccuracy(k6, {}, ['--vus', '2']);
        if (k6.version.startsWith('v1.')) {
          expect(run.code, k6Output(run)).toBe(0);
          expect(run.summaries[0]?.passed).toBe(true);
        } else {
          expect(run.code, k6Output(run)).toBe(108);
          expect(run.stderr).toMatch(
            /k6 is not running this script's scenarios \(expected header_accuracy; running default\)/,
          );
          expect(run.received).toBe(0);
        }
      },
    );

    it('--iterations 3 replaces them in every version: refused (exit 108)', async () => {
      const run = await headerAccuracy(k6, {}, ['--iterations', '3']);
      expect(run.code, k6Output(run)).toBe(108);
      expect(run.stderr).toMatch(/--vus, --iterations, --duration and --stage replace them/);
    });
  });
});
