// The k6 bundles: they build with k6 modules only, and under the real k6 (every pinned version, see
// testkit/k6/k6.ts) each one run plainly — `k6 run bundle.js`, no execution segment, as anyone would
// first type it — sends requests to the reference server and passes; the probe bundles report exactly
// the checks the core reports under Node, and fail the targeted checks on a faulty server.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { lowerCaseHeaders } from '../core/exchange.ts';
import { silentProgress } from '../core/progress.ts';
import { parseRunnerResults } from './capacity/result.ts';
import { createApp, type Handle, type ReferenceFaults } from '../reference/index.ts';
import { buildK6, k6Scripts, NODE_MARKERS } from '../scripts/build-k6.ts';
import { parsePlansFile, resolvePlan } from '../spec/plans.ts';
import { unusedPort } from '../testkit/http/hostile.ts';
import { countingServer, type CountingServer } from '../testkit/k6/counting-server.ts';
import { K6_UNDER_TEST, k6Output, runK6, type K6Run, type K6UnderTest } from '../testkit/k6/k6.ts';
import { inProcessTarget } from '../testkit/load/in-process.ts';
import type { ProbeName } from './probes/checks.ts';
import { createContext } from './probes/context.ts';
import { runProbes } from './probes/run.ts';

const dir = mkdtempSync(join(tmpdir(), 'petcert-k6-'));
const dist = join(dir, 'dist');
let outputs: string[] = [];

// Compressed windows: 2 s minutes in a 12 s day.
const TABLE = {
  windows: { minuteSeconds: 2, daySeconds: 12 },
  plans: { free: { perMinute: 3, perDay: 14 }, pro: { perMinute: 5, perDay: 24 } },
};
// capacity runs at a fraction of the quotas for seconds: ample quotas, real windows.
const CAPACITY_TABLE = {
  windows: { minuteSeconds: 60, daySeconds: 86_400 },
  plans: { free: { perMinute: 600, perDay: 100_000 }, pro: { perMinute: 1200, perDay: 200_000 } },
};
const keys = { pc_free_k6_aaaaaaaaaa: 'free', pc_pro_k6_bbbbbbbbbbb: 'pro' };
const KEYS = Object.entries(keys)
  .map(([k, p]) => `${p}=${k}`)
  .join(',');

beforeAll(async () => {
  outputs = await buildK6(dist);
  writeFileSync(join(dir, 'plans.json'), JSON.stringify(TABLE));
  writeFileSync(join(dir, 'plans-capacity.json'), JSON.stringify(CAPACITY_TABLE));
}, 60_000);

describe('k6 bundles', () => {
  it('builds one bundle per script, importing only k6 modules', () => {
    expect(outputs.map((f) => basename(f)).sort()).toEqual(
      k6Scripts()
        .map((f) => f.replace(/\.ts$/, '.js'))
        .sort(),
    );
    expect(k6Scripts()).toEqual(
      expect.arrayContaining([
        'quota-minute.ts',
        'quota-day.ts',
        'retry-after.ts',
        'header-accuracy.ts',
        'capacity.ts',
        'key-split.ts',
      ]),
    );
    for (const file of outputs) {
      const text = readFileSync(file, 'utf8');
      for (const marker of NODE_MARKERS) expect(text, `${file} ${marker}`).not.toMatch(marker);
      const imports = [...text.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
      for (const spec of imports) expect(spec).toMatch(/^k6(\/|$)/);
    }
  });
});

/** The check ids the core reports for these probes under Node (reference in-process, fake clock). */
async function coreCheckIds(only: ProbeName[]): Promise<string[]> {
  const plans = parsePlansFile(TABLE);
  const target = inProcessTarget({ plans, keys });
  const ctx = createContext({
    send: target.send,
    clock: target.clock,
    baseUrl: target.baseUrl,
    windows: plans.windows,
    progress: silentProgress,
  });
  const list = Object.entries(keys).map(([key, plan]) => ({ key, plan: resolvePlan(plans, plan) }));
  return (await runProbes(ctx, list, only, Object.keys(keys))).checks.map((c) => c.id);
}

async function plainRun(
  k6: K6UnderTest,
  script: string,
  server: CountingServer,
  env: Record<string, string> = {},
): Promise<K6Run> {
  return runK6(k6, [join(dist, `${script}.js`)], {
    env: { BASE_URL: server.baseUrl, KEYS, PLANS_FILE: join(dir, 'plans.json'), ...env },
    timeoutMs: 100_000,
  });
}

async function onServer<T>(
  options: { faults?: ReferenceFaults; wrap?: (h: Handle) => Handle; table?: object },
  body: (server: CountingServer) => Promise<T>,
): Promise<T> {
  const server = await countingServer({
    plans: parsePlansFile(options.table ?? TABLE),
    keys,
    faults: options.faults,
    wrap: options.wrap,
  });
  try {
    return await body(server);
  } finally {
    await server.close();
  }
}

/**
 * The reference app over a socket without any Date header. Not listen() + a wrap: node:http adds a Date
 * to every response of its own (res.sendDate), which the in-process imitation of k6 never saw.
 */
async function noDateServer(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const app = createApp({ plans: parsePlansFile(TABLE), keys });
  const server = createServer((req, res) => {
    req.resume().on('end', () => {
      void app
        .handle({ method: req.method ?? 'GET', path: req.url ?? '/', headers: lowerCaseHeaders(req.headers), body: '' })
        .then((answer) => {
          const { date: _, ...headers } = answer.headers;
          res.sendDate = false;
          res.writeHead(answer.status, { ...headers, 'content-length': Buffer.byteLength(answer.body) });
          res.end(answer.body);
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const PROBE_SCRIPTS = [
  ['quota-minute', ['minute', 'isolation'], () => true],
  ['retry-after', ['minute'], (id: string) => /^quota\.(retry-after|recovery|rejected)/.test(id)],
  ['header-accuracy', ['burst'], () => true],
  ['quota-day', ['day'], () => true],
] as const;

// The pinned versions side by side (each its own servers), each version's runs one after another: a k6 run
// mostly waits for the compressed windows, and two at once keep its checks' timing.
describe.concurrent.each(K6_UNDER_TEST)('$title', (k6) => {
  const inOrder = k6.skip === undefined ? it.sequential : it.skip;
  inOrder.for(PROBE_SCRIPTS)(
    'plain `k6 run %s.js` passes on the reference server with exactly the core’s checks, keys never printed',
    { timeout: 120_000 },
    async ([script, probes, keep]) => {
      const run = await onServer({}, (server) =>
        plainRun(k6, script, server).then((r) => ({ ...r, received: server.perKey() })),
      );
      expect(run.code, k6Output(run)).toBe(0);
      expect([...run.received.keys()].sort()).toEqual(Object.keys(keys).sort());
      expect(run.summaries).toHaveLength(1);
      const summary = run.summaries[0]!;
      expect(summary).toMatchObject({
        script,
        k6Summary: 'legacy',
        passed: true,
        thresholds: { 'checks: rate==1': true, 'http_reqs: count>0': true },
      });
      const core = (await coreCheckIds([...probes])).filter(keep);
      expect(summary.checks.map((c) => c.name.replace(/ \(.*\)$/, '')).sort()).toEqual(core.sort());
      expect(summary.checks.filter((c) => c.fails > 0)).toEqual([]);
      for (const key of Object.keys(keys)) expect(run.stdout + run.stderr).not.toContain(key);
    },
  );

  inOrder.for([
    ['quota-minute', { overAdmit: 1 }, 'quota.minute.exact[free]'],
    ['retry-after', { retryAfter: 'missing' }, 'quota.retry-after.present[free]'],
    ['header-accuracy', { overAdmit: 1 }, 'quota.burst.exact[free]'],
    ['quota-day', { noDayQuota: true }, 'quota.day.exact[free]'],
  ] as const)(
    '%s fails on a faulty server (%o): %s, exit code 99',
    { timeout: 120_000 },
    async ([script, faults, check]) => {
      const run = await onServer({ faults }, (server) => plainRun(k6, script, server));
      expect(run.code, k6Output(run)).toBe(99);
      const summary = run.summaries[0]!;
      expect(summary.passed).toBe(false);
      expect(summary.thresholds).toMatchObject({ 'checks: rate==1': false });
      expect(summary.checks.filter((c) => c.fails > 0).map((c) => c.name)).toContain(check);
    },
  );

  inOrder(
    'reports a MUST check skipped on a server without Date as skipped, not under its bare id',
    { timeout: 120_000 },
    async () => {
      const server = await noDateServer();
      try {
        const run = await runK6(k6, [join(dist, 'quota-minute.js')], {
          env: { BASE_URL: server.baseUrl, KEYS, PLANS_FILE: join(dir, 'plans.json') },
          timeoutMs: 100_000,
        });
        expect(run.code, k6Output(run)).toBe(0);
        const names = run.summaries[0]!.checks.map((c) => c.name);
        expect(names).toContain('quota.minute.exact[free] (MUST: skip)');
        expect(names).not.toContain('quota.minute.exact[free]');
      } finally {
        await server.close();
      }
    },
  );

  inOrder(
    'plain `k6 run key-split.js` (no execution segment) uses every key, and says it ran as 0:1',
    { timeout: 60_000 },
    async () => {
      const env = { PLANS_FILE: join(dir, 'plans-capacity.json'), RATE: '5', DURATION: '2s' };
      const run = await onServer({ table: CAPACITY_TABLE }, (server) =>
        plainRun(k6, 'key-split', server, env).then((r) => ({ ...r, received: server.received })),
      );
      expect(run.code, k6Output(run)).toBe(0);
      expect([...new Set(run.received.map((r) => r.key))].sort()).toEqual(Object.keys(keys).sort());
      expect(new Set(run.received.map((r) => r.segment))).toEqual(new Set(['0:1']));
      expect(run.summaries[0]).toMatchObject({ script: 'key-split', passed: true });
    },
  );

  // capacity.ts: whatever its settings, a plain run must send
  // requests or fail loudly. DURATION/FRACTION and STEP_SECONDS/STEPS/CANARIES keep it short either way.
  inOrder(
    'plain `k6 run capacity.js` (no execution segment) sends requests with every key, or fails loudly',
    { timeout: 120_000 },
    async () => {
      const env = {
        PLANS_FILE: join(dir, 'plans-capacity.json'),
        DURATION: '3s',
        FRACTION: '0.5',
        STEP_SECONDS: '2',
        STEPS: '2',
        CANARIES: '0',
      };
      const run = await onServer({ table: CAPACITY_TABLE }, (server) =>
        plainRun(k6, 'capacity', server, env).then((r) => ({ ...r, received: server.perKey() })),
      );
      if (run.code === 0) {
        expect([...run.received.keys()].sort(), k6Output(run)).toEqual(Object.keys(keys).sort());
        expect(run.stderr, k6Output(run)).not.toMatch(/level=error/);
      } else {
        expect(run.stderr, k6Output(run)).toMatch(/level=error/);
      }
      if (run.received.size === 0) for (const s of run.summaries) expect(s.passed).not.toBe(true);
    },
  );

  // A 429 below quota fails its step's check (load/capacity/step-events.ts), and so the bundle's
  // `checks` threshold: a plain run fails on it. The server limits the keys by TABLE (3 and 5 a 2 s
  // window), the script plans its load by CAPACITY_TABLE (600 and 1,200 a minute): 429s far below quota.
  inOrder(
    'plain `k6 run capacity.js` fails (exit 99) when the target 429s keys below their quota',
    { timeout: 120_000 },
    async () => {
      const env = { PLANS_FILE: join(dir, 'plans-capacity.json'), STEP_SECONDS: '2', STEPS: '2', CANARIES: '0' };
      const run = await onServer({ table: TABLE }, (server) => plainRun(k6, 'capacity', server, env));
      expect(run.code, k6Output(run)).toBe(99);
      expect(run.stderr, k6Output(run)).toMatch(/thresholds on metrics '[^']*\bchecks\b/);
      const [result] = parseRunnerResults(run.stdout, 'k6');
      expect(
        result!.steps.reduce((n, step) => n + step.below429, 0),
        k6Output(run),
      ).toBeGreaterThan(0);
    },
  );

  // No answer at all is not a pass: every request failing (a closed port) passes each step's event checks,
  // so the SLO's error term (or, without one, "not every request failed") fails a plain run.
  inOrder('plain `k6 run capacity.js` fails (exit 99) when no request is answered', { timeout: 120_000 }, async () => {
    const port = await unusedPort();
    const env = {
      BASE_URL: `http://127.0.0.1:${port}/v1`,
      KEYS,
      PLANS_FILE: join(dir, 'plans-capacity.json'),
      STEP_SECONDS: '2',
      STEPS: '2',
      CANARIES: '0',
    };
    const run = await runK6(k6, [join(dist, 'capacity.js')], { env, timeoutMs: 100_000 });
    expect(run.code, k6Output(run)).toBe(99);
    expect(run.stderr, k6Output(run)).toMatch(/thresholds on metrics '[^']*\bhttp_req_failed\b/);
  });
});
