// The k6 bundles: they build, contain no Node API, and — where `k6` is on PATH — run against the
// reference server with compressed windows and pass. Without k6 that test is reported skipped.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildK6, k6Scripts, NODE_MARKERS } from '../scripts/build-k6.ts';
import { listen, type RunningServer } from '../reference/index.ts';
import { parsePlansFile } from '../spec/plans.ts';

const dir = mkdtempSync(join(tmpdir(), 'petcert-k6-'));
const hasK6 = spawnSync('k6', ['version'], { encoding: 'utf8' }).status === 0;
let outputs: string[] = [];

beforeAll(async () => {
  outputs = await buildK6(join(dir, 'dist'));
}, 60_000);

describe('k6 bundles', () => {
  it('builds one bundle per script, importing only k6 modules', () => {
    expect(outputs.map((f) => basename(f)).sort()).toEqual(k6Scripts().map((f) => f.replace(/\.ts$/, '.js')).sort());
    expect(k6Scripts()).toEqual(expect.arrayContaining(['quota-minute.ts', 'quota-day.ts', 'retry-after.ts', 'header-accuracy.ts', 'capacity.ts']));
    for (const file of outputs) {
      const text = readFileSync(file, 'utf8');
      for (const marker of NODE_MARKERS) expect(text, `${file} ${marker}`).not.toMatch(marker);
      const imports = [...text.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
      for (const spec of imports) expect(spec).toMatch(/^k6(\/|$)/);
    }
  });

  it('leaves out what the k6 runtime lacks (async generators, named groups, URL, Intl, …)', () => {
    for (const file of outputs) {
      expect(readFileSync(file, 'utf8')).not.toMatch(/for await|async function\*|\(\?<[A-Za-z]|\\p\{|structuredClone|new URL\(|TextEncoder|Intl\.|AbortController|\batob\(|\bfetch\(/);
    }
  });
});

describe('k6 bundles against the reference server', () => {
  const plans = { windows: { minuteSeconds: 2, daySeconds: 12 }, plans: { free: { perMinute: 3, perDay: 14 }, pro: { perMinute: 5, perDay: 24 } } };
  const keys = { pc_free_k6_aaaaaaaaaa: 'free', pc_pro_k6_bbbbbbbbbbb: 'pro' };
  let server: RunningServer | undefined;
  beforeAll(async () => {
    if (!hasK6) return;
    writeFileSync(join(dir, 'plans.json'), JSON.stringify(plans));
    server = await listen({ plans: parsePlansFile(plans), keys });
  });
  afterAll(async () => server?.close());

  it.skipIf(!hasK6).for(['quota-minute', 'retry-after', 'header-accuracy'])(
    `%s passes under k6${hasK6 ? '' : ' (skipped: k6 is not on PATH)'}`,
    { timeout: 120_000 },
    (script) => {
      const env = { ...process.env, BASE_URL: server!.baseUrl, KEYS: Object.entries(keys).map(([k, p]) => `${p}=${k}`).join(','), PLANS_FILE: join(dir, 'plans.json'), REPORT_DIR: dir };
      const run = spawnSync('k6', ['run', '--quiet', join(dir, 'dist', `${script}.js`)], { env, encoding: 'utf8', timeout: 90_000 });
      expect(run.status, run.stdout + run.stderr).toBe(0);
      const summary = readFileSync(join(dir, `k6-${script}.json`), 'utf8');
      expect(JSON.parse(summary).passed).toBe(true);
      for (const key of Object.keys(keys)) expect(summary).not.toContain(key);
      expect(existsSync(join(dir, `k6-${script}.json`))).toBe(true);
    },
  );
});
