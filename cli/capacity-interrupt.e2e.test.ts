// An interrupted capacity run keeps its evidence (docs/decisions/004): SIGTERM mid-step stops the k6 child (gone within seconds, none left behind),
// nothing more is sent a second after, and the report of the steps judged so far is written, marked
// INTERRUPTED, no run-level check a PASS; exit 143. Under every pinned k6 (skipped locally without it).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { keysFileText } from '../load/capacity/keys-file.ts';
import type { Report } from '../report/model.ts';
import { keyPool } from '../reference/key-pool.ts';
import { listen, type RunningServer } from '../reference/index.ts';
import { parsePlansFile } from '../spec/plans.ts';
import { CAPACITY_PLANS, capacityBed, eachK6 } from '../testkit/capacity/k6.ts';

const BIN = resolve(import.meta.dirname, '../bin/petcert.js');
const { dir, plansFile, script } = capacityBed('petcert-capacity-interrupt-');
let server: RunningServer;
let keysFile: string;
const arrivals: number[] = [];

beforeAll(async () => {
  const keys = keyPool({ free: 12 });
  server = await listen({
    plans: parsePlansFile(CAPACITY_PLANS),
    keys,
    log: () => undefined,
    wrap: (h) => (req) => (arrivals.push(Date.now()), h(req)),
  });
  keysFile = join(dir, 'keys.txt');
  writeFileSync(keysFile, keysFileText(Object.entries(keys).map(([key, plan]) => ({ plan, key }))));
});
afterAll(() => server?.close());

/** Process ids of `pid`'s children (k6), from ps. */
const childrenOf = (pid: number): number[] =>
  execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
    .split('\n')
    .map((l) => Number(l.trim()))
    .filter((n) => n > 0);
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

eachK6('capacity interrupted mid-step', (k6) => {
  it('SIGTERM: k6 stopped, nothing sent a second later, the report of the steps so far, exit 143', async () => {
    const reportDir = mkdtempSync(join(dir, 'reports-'));
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
      '--mix',
      'free=4',
      '--step-seconds',
      '4',
      '--steps',
      '4',
      '--no-calibrate',
      '--no-canaries',
    ];
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, K6: k6() ?? '', NO_COLOR: '1' } });
    let out = '';
    let k6Pids: number[] = [];
    let signalledAt = 0;
    const code = await new Promise<number | null>((done) => {
      const onData = (d: Buffer) => {
        out += d.toString();
        // After the first step's line, the second step's k6 is running: signal it mid-step.
        if (signalledAt === 0 && /step 1\/4/.test(out)) {
          setTimeout(() => {
            k6Pids = childrenOf(child.pid!);
            signalledAt = Date.now();
            child.kill('SIGTERM');
          }, 1500);
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.on('close', done);
    });
    expect(code, out).toBe(143);
    expect(k6Pids.length, 'a k6 child was running when signalled').toBeGreaterThan(0);
    for (const pid of k6Pids) expect(alive(pid), `k6 ${pid} still running`).toBe(false);
    expect(arrivals.filter((t) => t > signalledAt + 1000).length).toBe(0);
    const report = JSON.parse(readFileSync(join(reportDir, 'latest', 'report.json'), 'utf8')) as Report;
    expect(report.aborted?.code).toBe('INTERRUPTED');
    expect(report.checks.filter((c) => c.outcome === 'pass')).toEqual([]);
    expect(report.checks.map((c) => c.skipReason ?? '').join('\n')).toMatch(/interrupted after 1 of 4 steps/);
  }, 120_000);
});
