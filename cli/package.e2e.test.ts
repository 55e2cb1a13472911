// The package as a user gets it: `npm pack` of what package.json's "files" names, with dist/ and the
// k6 bundles built as prepack builds them (here into a staging copy, so tests that read load/dist never
// see it rewritten), installed into an empty folder with production dependencies only, then run with no
// TypeScript compiler anywhere: --version, conform --help, and a short conform against `petcert serve`.
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import pkg from '../package.json' with { type: 'json' };
import { buildCli } from '../scripts/build.ts';
import { buildK6 } from '../scripts/build-k6.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'petcert-package-'));
const app = join(work, 'app');
const bin = join(app, 'node_modules/.bin/petcert');
const npm = (args: string[], cwd: string): SpawnSyncReturns<string> =>
  spawnSync('npm', args, { cwd, encoding: 'utf8', timeout: 240_000 });
const petcert = (args: string[]) =>
  spawnSync(bin, args, { cwd: work, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });

beforeAll(async () => {
  const stage = join(work, 'stage');
  const built = new Set(['dist/', 'load/dist/']);
  for (const entry of [...pkg.files, 'package.json'])
    if (!built.has(entry)) cpSync(join(root, entry), join(stage, entry), { recursive: true });
  await buildCli(join(stage, 'dist/petcert.js'));
  await buildK6(join(stage, 'load/dist'));
  const packed = npm(['pack', '--ignore-scripts', '--pack-destination', work, '--silent'], stage);
  expect(packed.status, packed.stderr).toBe(0);
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'empty', private: true }));
  const tarball = join(work, `petcert-${pkg.version}.tgz`);
  const installed = npm(['install', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', tarball], app);
  expect(installed.status, installed.stderr).toBe(0);
}, 300_000);

let serve: ReturnType<typeof spawn> | undefined;
afterAll(() => serve?.kill('SIGTERM'));

test('installs with runtime dependencies only: no TypeScript, no tsx, no dev tool; the k6 bundles are inside', () => {
  const modules = readdirSync(join(app, 'node_modules'));
  for (const dev of ['typescript', 'tsx', 'esbuild', 'vitest', '@types']) expect(modules).not.toContain(dev);
  for (const dep of Object.keys(pkg.dependencies)) expect(modules).toContain(dep);
  const shipped = join(app, 'node_modules/petcert');
  expect(existsSync(join(shipped, 'cli'))).toBe(false);
  for (const bundle of ['capacity.js', 'quota-minute.js', 'quota-day.js'])
    expect(existsSync(join(shipped, 'load/dist', bundle))).toBe(true);
});

test('petcert --version and conform --help run from the installed package', () => {
  const version = petcert(['--version']);
  expect([version.status, version.stdout.trim()]).toEqual([0, pkg.version]);
  const help = petcert(['conform', '--help']);
  expect(help.status).toBe(0);
  expect(help.stdout).toContain('--base-url');
});

test('a short conform against the installed petcert serve passes', async () => {
  serve = spawn(bin, ['serve', '--port', '0', '--key', 'package-test-key=business'], { cwd: work });
  let out = '';
  serve.stdout!.on('data', (d) => (out += d));
  const deadline = Date.now() + 20_000;
  while (!/listening on (\S+)/.test(out)) {
    if (Date.now() > deadline) throw new Error(`serve did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const baseUrl = /listening on (\S+)/.exec(out)![1]!;
  const run = await new Promise<{ code: number | null; out: string }>((resolve) => {
    // The key with its plan: a PASS needs every MUST check judged, X-RateLimit-Limit against the plan too.
    const c = spawn(
      bin,
      [
        'conform',
        '--base-url',
        baseUrl,
        '--key',
        'business=package-test-key',
        '--seed',
        '1',
        '--report-dir',
        join(work, 'reports'),
      ],
      { cwd: work },
    );
    let text = '';
    c.stdout.on('data', (d) => (text += d));
    c.stderr.on('data', (d) => (text += d));
    c.on('close', (code) => resolve({ code, out: text }));
  });
  expect(run.code, run.out).toBe(0);
  expect(run.out).toMatch(/^PASS/m);
  expect(existsSync(join(work, 'reports/latest/report.json'))).toBe(true);
}, 120_000);
