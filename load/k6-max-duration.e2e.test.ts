// k6 stops a scenario at its maxDuration, whatever the probe is doing: a script whose maxDuration is
// below the core's own worst case (load/probes/bounds.ts) can cut a correct run short before its
// verdict (quota-day's maxDuration must cover a bound of about 5 days). Read as
// the real k6 reads each probe script's options (`k6 inspect`), with the spec's windows and with
// compressed ones, one key and two.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../core/request-timeout.ts';
import { k6Scripts } from '../scripts/build-k6.ts';
import { parsePlansFile, type PlanTable } from '../spec/plans.ts';
import { buildBundles } from '../testkit/k6/bundles.ts';
import { K6_UNDER_TEST } from '../testkit/k6/k6.ts';
import type { ProbeName } from './probes/checks.ts';
import { quotaBoundOf } from './quota.ts';

/** The probes each probe script runs (stated here, apart from the scripts, for this test to hold them to). */
const PROBES_OF: Record<string, (keys: number) => ProbeName[]> = {
  'quota-minute.js': (keys) => (keys > 1 ? ['minute', 'isolation'] : ['minute']),
  'retry-after.js': () => ['minute'],
  'header-accuracy.js': () => ['burst'],
  'quota-day.js': () => ['day'],
};
/** Scripts that run no probe: their durations are their own options (capacity: load/capacity). */
const NOT_PROBES = ['capacity.js', 'key-split.js'];

/** A Go duration as k6 prints it ("72h5m0s", "1m30.5s", "750ms") in ms. */
function goDurationMs(text: string): number {
  const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 1e-3, µs: 1e-3, ns: 1e-6 };
  let ms = 0;
  for (const [, n, unit] of text.matchAll(/([\d.]+)(ms|us|µs|ns|h|m|s)/g)) ms += Number(n) * units[unit!]!;
  return ms;
}

const dir = mkdtempSync(join(tmpdir(), 'petcert-k6-max-'));
const COMPRESSED = {
  windows: { minuteSeconds: 2, daySeconds: 12 },
  plans: { free: { perMinute: 3, perDay: 14 }, pro: { perMinute: 5, perDay: 24 } },
};
const TABLES: Array<{ title: string; table: PlanTable; file?: string }> = [
  { title: "the spec's windows", table: parsePlansFile({}) },
  { title: 'compressed windows', table: parsePlansFile(COMPRESSED), file: join(dir, 'plans.json') },
];
writeFileSync(join(dir, 'plans.json'), JSON.stringify(COMPRESSED));
const KEY_SETS = [
  [{ plan: 'free', key: 'pc_free_aaaaaaaaaaaa' }],
  [
    { plan: 'free', key: 'pc_free_aaaaaaaaaaaa' },
    { plan: 'pro', key: 'pc_pro_bbbbbbbbbbbbb' },
  ],
];

let dist = '';
beforeAll(async () => {
  dist = await buildBundles();
}, 60_000);

const k6 = K6_UNDER_TEST.find((k) => k.skip === undefined && k.path !== undefined) ?? K6_UNDER_TEST[0]!;

describe.skipIf(k6.skip)(`every probe script's maxDuration covers the core's bound (${k6.title})`, () => {
  it('every k6 script is either a probe script held to its bound here, or named as not one', () => {
    const scripts = k6Scripts().map((f) => f.replace(/\.ts$/, '.js'));
    expect(scripts.filter((s) => !(s in PROBES_OF) && !NOT_PROBES.includes(s))).toEqual([]);
  });

  const rows = Object.keys(PROBES_OF).flatMap((script) =>
    TABLES.flatMap((t) => KEY_SETS.map((keys) => ({ script, ...t, keys }))),
  );
  it.for(rows)('$script, $title, $keys.length key(s)', ({ script, table, file, keys }) => {
    const env = [
      '-e',
      `KEYS=${keys.map((k) => `${k.plan}=${k.key}`).join(',')}`,
      ...(file ? ['-e', `PLANS_FILE=${file}`] : []),
    ];
    const run = spawnSync(k6.path!, ['inspect', ...env, join(dist, script)], { encoding: 'utf8', timeout: 30_000 });
    expect(run.status, `${script}: ${run.stderr}`).toBe(0);
    const options = JSON.parse(run.stdout) as { scenarios: Record<string, { maxDuration?: string }> };
    const [scenario] = Object.values(options.scenarios);
    const only = PROBES_OF[script]!(keys.length);
    const bound = quotaBoundOf({ keys, plans: table, only, timeoutMs: DEFAULT_REQUEST_TIMEOUT_MS });
    expect(
      goDurationMs(scenario?.maxDuration ?? '0s'),
      `${script} maxDuration ${scenario?.maxDuration}`,
    ).toBeGreaterThanOrEqual(bound.totalMs);
  });
});
