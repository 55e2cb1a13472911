// The built k6 bundles in a sobek-like sandbox (load/testing/k6-shim): only ECMAScript built-ins and
// k6's globals, the k6 modules shimmed over the reference server in-process on a virtual clock. Not
// k6 — what this proves and what only a real k6 run proves is in load/README.md.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Handle } from '../reference/index.ts';
import type { ReferenceFaults } from '../reference/index.ts';
import { silentProgress } from '../core/progress.ts';
import { parsePlansFile, resolvePlan } from '../spec/plans.ts';
import type { ProbeName } from './probes/checks.ts';
import { createContext } from './probes/context.ts';
import { runProbes } from './probes/run.ts';
import { inProcessTarget } from '../testkit/load/in-process.ts';
import { buildK6 } from '../scripts/build-k6.ts';
import { durationMs, runInShim, SHIM_ORIGIN, type ShimRunOptions, type ShimRunResult } from '../testkit/load/k6-shim/run.ts';
import { createSobekLikeContext, globalNames } from '../testkit/load/k6-shim/sandbox.ts';

const dir = mkdtempSync(join(tmpdir(), 'petcert-k6-sandbox-'));
// Two compressed tables: the probe tests' one, and 1 s minutes in a 4 s day (each day only 2.4–3 minute windows of quota).
const TABLES = {
  wide: { windows: { minuteSeconds: 2, daySeconds: 16 }, plans: { free: { perMinute: 4, perDay: 20 }, pro: { perMinute: 6, perDay: 30 } } },
  tight: { windows: { minuteSeconds: 1, daySeconds: 4 }, plans: { free: { perMinute: 5, perDay: 12 }, pro: { perMinute: 10, perDay: 30 } } },
};
type Table = keyof typeof TABLES;
const keys = { pc_free_sbx_aaaaaaaaaa: 'free', pc_pro_sbx_bbbbbbbbbbb: 'pro' };
const KEYS = Object.entries(keys).map(([k, p]) => `${p}=${k}`).join(',');

beforeAll(async () => {
  await buildK6(join(dir, 'dist'));
  for (const [name, table] of Object.entries(TABLES)) writeFileSync(join(dir, `plans-${name}.json`), JSON.stringify(table));
}, 60_000);

type Extra = Partial<Omit<ShimRunOptions, 'bundle' | 'env' | 'reference'>> & { faults?: ReferenceFaults; env?: Record<string, string>; table?: Table };
const run = (script: string, { faults, env, table = 'wide', ...rest }: Extra = {}): Promise<ShimRunResult> =>
  runInShim({
    bundle: script.startsWith('/') ? script : join(dir, 'dist', `${script}.js`),
    env: { BASE_URL: `${SHIM_ORIGIN}/v1`, KEYS, PLANS_FILE: join(dir, `plans-${table}.json`), ...env },
    reference: { plans: parsePlansFile(TABLES[table]), keys, faults },
    ...rest,
  });

/** The same probes run by the core under Node (load/testing/in-process.ts): the check ids the bundle must report. */
async function coreCheckIds(table: Table, only: ProbeName[]): Promise<string[]> {
  const plans = parsePlansFile(TABLES[table]);
  const target = inProcessTarget({ plans, keys });
  const ctx = createContext({ send: target.send, clock: target.clock, baseUrl: target.baseUrl, windows: plans.windows, progress: silentProgress });
  const list = Object.entries(keys).map(([key, plan]) => ({ key, plan: resolvePlan(plans, plan) }));
  return (await runProbes(ctx, list, only, Object.keys(keys))).checks.map((c) => c.id);
}
const failing = (r: ShimRunResult) => [...r.recorder.checks].filter(([, c]) => c.fails > 0).map(([name]) => name);
const report = (r: ShimRunResult, file: string) => {
  expect(Object.keys(r.summary).sort()).toEqual([file, 'stdout']);
  const text = String(r.summary[file]);
  for (const key of Object.keys(keys)) expect(text).not.toContain(key);
  return JSON.parse(text) as { passed: boolean; checks: Array<{ name: string; fails: number }>; thresholds: Record<string, boolean> };
};

describe('the sobek-like sandbox', () => {
  it('offers ECMAScript built-ins and k6 globals only', () => {
    const noop = () => 0;
    const ctx = createSobekLikeContext({ __ENV: {}, open: () => '', console: { log: noop, info: noop, warn: noop, error: noop, debug: noop }, setTimeout: noop, clearTimeout: noop, setInterval: noop, clearInterval: noop, vu: noop, iter: noop }, Date.now);
    const names = globalNames(ctx);
    for (const absent of ['URL', 'TextEncoder', 'TextDecoder', 'Intl', 'structuredClone', 'AbortController', 'atob', 'btoa', 'fetch', 'process', 'Buffer', 'require', 'performance', 'queueMicrotask', 'setImmediate', 'WeakRef']) {
      expect(names).not.toContain(absent);
    }
    expect(names).toEqual(expect.arrayContaining(['Promise', 'Map', 'Proxy', 'JSON', '__ENV', '__VU', '__ITER', 'open', 'console', 'setTimeout', 'clearTimeout']));
  });

  const bad = (name: string, body: string): string => {
    const file = join(dir, `bad-${name}.js`);
    writeFileSync(file, `import { check } from "k6";\nexport const options = { scenarios: { s: { executor: "per-vu-iterations", vus: 1, iterations: 1 } } };\nexport default function () {\n  check(null, { "reached": () => true });\n  ${body};\n}\n`);
    return file;
  };

  it('fails a bundle that calls new URL(...) at init, with the ReferenceError sobek would raise', async () => {
    const file = join(dir, 'bad-url-init.js');
    writeFileSync(file, 'import { check } from "k6";\nconst host = new URL(__ENV.BASE_URL).host;\nexport default function () { check(host, { host: (h) => h.length > 0 }); }\n');
    await expect(run(file)).rejects.toMatchObject({ name: 'ReferenceError', message: 'URL is not defined' });
  });

  it.for([
    ['URL', 'new URL("http://127.0.0.1/")', /ReferenceError: URL is not defined/],
    ['TextEncoder', 'new TextEncoder().encode("x")', /ReferenceError: TextEncoder is not defined/],
    ['structuredClone', 'structuredClone({})', /ReferenceError: structuredClone is not defined/],
    ['Intl', 'Intl.NumberFormat().format(1)', /ReferenceError: Intl is not defined/],
    ['atob', 'atob("eA==")', /ReferenceError: atob is not defined/],
    ['fetch', 'fetch("http://127.0.0.1/")', /ReferenceError: fetch is not defined/],
    ['process.env', 'process.env.X', /ReferenceError: process is not defined/],
    ['Array.prototype.at (ES2022)', '[1, 2].at(-1)', /TypeError: .*at is not a function/],
    ['Object.hasOwn (ES2022)', 'Object.hasOwn({}, "a")', /TypeError: .*hasOwn is not a function/],
    ['a Node module', 'require("node:fs")', /module node:fs is not offered/],
    ['a synchronous k6 request', 'require("k6/http").default.request("GET", "http://127.0.0.1:1/v1/pets")', /synchronous/],
  ] as const)('fails an iteration that uses %s', async ([name, body, error]) => {
    const r = await run(bad(name.replace(/\W+/g, '-'), body));
    expect(r.recorder.checks.get('reached')).toEqual({ passes: 1, fails: 0 });
    expect(r.iterationErrors.join('\n')).toMatch(error);
  });

  it('runs a bundle that uses only what k6 offers (global and k6/timers timers, __ENV, __VU, open at init)', async () => {
    const file = join(dir, 'good.js');
    writeFileSync(file, `import { check } from "k6";\nimport { setTimeout as later } from "k6/timers";\nconst plans = JSON.parse(open(__ENV.PLANS_FILE));\nexport default async function () {\n  const t0 = Date.now();\n  await new Promise((r) => setTimeout(r, 1500));\n  await new Promise((r) => later(r, 500));\n  check(plans, { "k6 globals": (p) => p.windows.minuteSeconds === 2 && __VU === 1 && __ITER === 0, "timers advance the clock": () => Date.now() - t0 >= 2000, "modern syntax": () => [[1], [2]].flatMap((x) => x)?.length === 2 && (null ?? 1) === 1 });\n}\n`);
    const r = await run(file);
    expect(r.iterationErrors).toEqual([]);
    expect(failing(r)).toEqual([]);
    expect([...r.recorder.checks.keys()]).toEqual(['k6 globals', 'timers advance the clock', 'modern syntax']);
  });
});

const PROBE_SCRIPTS = [
  ['quota-minute', 'quota_minute', ['minute', 'isolation'], ['quota.minute.exact[free]', 'quota.minute.exact[pro]', 'quota.isolation[pro]', 'quota.retry-after.present[free]']],
  ['retry-after', 'retry_after', ['minute'], ['quota.retry-after.present[free]', 'quota.retry-after.accurate[pro]', 'quota.recovery[free]']],
  ['header-accuracy', 'header_accuracy', ['burst'], ['quota.burst.exact[free]', 'quota.burst.remaining[pro]', 'quota.headers.valid[free]']],
  ['quota-day', 'quota_day', ['day'], ['quota.day.exact[free]', 'quota.day.exact[pro]', 'quota.day.retry-after[free]']],
] as const;
const RECOVERY = /^quota\.(retry-after|recovery|rejected)/;

describe('the probe bundles in the sandbox against the reference server', () => {
  it.for(PROBE_SCRIPTS.flatMap((s) => (['wide', 'tight'] as const).map((table) => [...s, table] as const)))('%s (%4$s windows): plain options, every check passes, report without keys', async ([script, scenario, probes, expected, table]) => {
    const r = await run(script, { table });
    expect(JSON.parse(JSON.stringify(r.options))).toEqual(r.options);
    const sc = (r.options.scenarios as Record<string, { executor: string; maxDuration: string }>)[scenario]!;
    expect(Object.keys(r.options.scenarios as object)).toEqual([scenario]);
    expect(sc.executor).toBe('per-vu-iterations');
    expect(r.options.thresholds).toEqual({ checks: ['rate==1'] });
    expect(r.iterationErrors).toEqual([]);
    expect(r.recorder.logs.filter((l) => l.level !== 'info')).toEqual([]);
    expect([...r.recorder.checks.keys()]).toEqual(expect.arrayContaining([...expected]));
    expect(failing(r)).toEqual([]);
    // Exactly the checks the core reports under Node, no more, no fewer (retry-after keeps its recovery checks).
    const core = (await coreCheckIds(table, [...probes])).filter((id) => script !== 'retry-after' || RECOVERY.test(id));
    expect([...r.recorder.checks.keys()].map((n) => n.replace(/ \(.*\)$/, '')).sort()).toEqual(core.sort());
    // k6 would cut the iteration at maxDuration: the probe must finish inside it (virtual time).
    expect(r.virtualMs).toBeLessThan(durationMs(sc.maxDuration, 0));
    const json = report(r, `reports/k6-${script}.json`);
    expect(json.passed).toBe(true);
    expect(json.checks.length).toBe(r.recorder.checks.size);
    expect(json.thresholds).toEqual({ 'checks: rate==1': true });
  });

  it.for([
    ['quota-minute', { overAdmit: 1 }, 'quota.minute.exact[free]'],
    ['retry-after', { retryAfter: 'missing' }, 'quota.retry-after.present[free]'],
    ['header-accuracy', { overAdmit: 1 }, 'quota.burst.exact[free]'],
    ['quota-day', { noDayQuota: true }, 'quota.day.exact[free]'],
  ] as const)('%s fails on a faulty server (%o): %s', async ([script, faults, check]) => {
    const r = await run(script, { faults });
    expect(failing(r)).toContain(check);
    const json = report(r, `reports/k6-${script}.json`);
    expect(json.passed).toBe(false);
    expect(json.thresholds).toEqual({ 'checks: rate==1': false });
  });

  it('reports a skipped MUST check as skipped, not under its bare id (server without Date)', async () => {
    const noDate = (h: Handle): Handle => async (req) => {
      const res = await h(req);
      const { date: _, ...headers } = res.headers;
      return { ...res, headers };
    };
    const r = await run('quota-minute', { wrap: noDate, env: { REPORT_DIR: 'out' } });
    const names = [...r.recorder.checks.keys()];
    expect(names).toContain('quota.minute.exact[free] (MUST: skip)');
    expect(names).not.toContain('quota.minute.exact[free]');
    expect(report(r, 'out/k6-quota-minute.json').passed).toBe(true);
  });
});

describe('the capacity bundle in the sandbox', () => {
  it('paces below the limit: every check passes, no unexpected 429, thresholds met', async () => {
    const r = await run('capacity', { maxIterations: 24 });
    expect(JSON.parse(JSON.stringify(r.options))).toEqual(r.options);
    expect((r.options.scenarios as Record<string, { executor: string }>).capacity!.executor).toBe('constant-arrival-rate');
    expect(r.iterationErrors).toEqual([]);
    expect(r.recorder.requests.length).toBe(24);
    expect(failing(r)).toEqual([]);
    expect(r.recorder.samples.get('unexpected_429') ?? []).toEqual([]);
    const json = report(r, 'reports/k6-capacity.json');
    expect(json.passed).toBe(true);
    expect(Object.keys(json.thresholds)).toEqual(expect.arrayContaining(['unexpected_429: count==0', 'http_req_failed: rate<0.01', 'checks: rate>0.99']));
  });

  it('counts unexpected 429s and fails on a server whose keys share one bucket', async () => {
    const r = await run('capacity', { maxIterations: 24, faults: { sharedBucket: true } });
    expect(failing(r)).toContain('status is 200 (or 429 at/above the limit)');
    expect((r.recorder.samples.get('unexpected_429') ?? []).length).toBeGreaterThan(0);
    const json = report(r, 'reports/k6-capacity.json');
    expect(json.passed).toBe(false);
    expect(json.thresholds['unexpected_429: count==0']).toBe(false);
  });

  it('gives each execution segment its own keys (two runners never share one)', async () => {
    const used = async (segment: string) => new Set((await run('capacity', { maxIterations: 6, executionSegment: segment })).recorder.requests.map((q) => q.authorization));
    const [a, b] = [await used('0:1/2'), await used('1/2:1')];
    expect([...a, ...b].sort()).toEqual(Object.keys(keys).map((k) => `Bearer ${k}`).sort());
    expect([...a].filter((k) => b.has(k))).toEqual([]);
  });
});
