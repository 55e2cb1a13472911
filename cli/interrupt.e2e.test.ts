// An interrupted run keeps its evidence (docs/decisions/004). The real CLI, signalled mid-run: it stops sending
// within 1 s, writes the report of what was judged (marked INTERRUPTED, the rest not run, never a
// PASS), says where it is and exits 130 (SIGINT) / 143 (SIGTERM); a second signal exits at once.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listen, type RunningServer } from '../reference/index.ts';
import type { Report } from '../report/model.ts';
import { parsePlansFile } from '../spec/plans.ts';
import { gunzipSync } from 'node:zlib';
import { runCli } from '../testkit/cli/run-cli.ts';

const BIN = resolve(import.meta.dirname, '../bin/petcert.js');
const KEY = 'pc-interrupt-business-key';
const FREE = 'pc-interrupt-free-key';
/** Minute 2 s: the quota probes run for a while, the day probe much longer than the test waits. */
const PLANS = {
  windows: { minuteSeconds: 2, daySeconds: 3600 },
  plans: { free: { perMinute: 20, perDay: 100_000 }, business: { perMinute: 100_000, perDay: 10_000_000 } },
};
const STOP_SENDING_MS = 1000;
const dir = mkdtempSync(join(tmpdir(), 'petcert-interrupt-'));
const plansFile = join(dir, 'plans.json');
let server: RunningServer;
/** When each request reached the server (local ms), and whether it should hang (for the second signal). */
const arrivals: number[] = [];
let hang = false;

beforeAll(async () => {
  writeFileSync(plansFile, JSON.stringify(PLANS));
  server = await listen({
    plans: parsePlansFile(PLANS, 'interrupt plans'),
    keys: { [KEY]: 'business', [FREE]: 'free' },
    log: () => undefined,
    wrap: (handle) => async (req) => {
      arrivals.push(Date.now());
      if (hang) await new Promise((r) => setTimeout(r, 8000));
      return handle(req);
    },
  });
});
afterAll(() => server.close());

interface Signalled {
  code: number | null;
  out: string;
  signalledAt: number;
  exitedAt: number;
  reportDir: string;
}

/** Starts petcert, waits until `ready` matches its output, sends `signals` (ms apart), waits for its exit. */
function interrupt(
  args: string[],
  ready: RegExp,
  signals: NodeJS.Signals[],
  gapMs = 300,
  beforeSignal = () => {},
): Promise<Signalled> {
  const reportDir = mkdtempSync(join(dir, 'reports-'));
  const child: ChildProcess = spawn(process.execPath, [BIN, ...args, '--report-dir', reportDir], {
    env: { ...process.env, NO_COLOR: '1' },
  });
  let out = '';
  let signalledAt = 0;
  return new Promise((done, fail) => {
    const killer = setTimeout(() => (child.kill('SIGKILL'), fail(new Error(`no exit within 60 s:\n${out}`))), 60_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      if (signalledAt === 0 && ready.test(out)) {
        beforeSignal();
        signalledAt = Date.now();
        signals.forEach((s, i) => setTimeout(() => child.kill(s), i * gapMs));
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('close', (code) => {
      clearTimeout(killer);
      done({ code, out, signalledAt, exitedAt: Date.now(), reportDir });
    });
  });
}

const reportOf = (s: Signalled): Report =>
  JSON.parse(readFileSync(join(s.reportDir, 'latest', 'report.json'), 'utf8')) as Report;
const sentAfter = (at: number): number => arrivals.filter((t) => t > at).length;

describe('interrupted runs keep their evidence', () => {
  test('mid-conform, SIGINT: stops sending within 1 s, report INTERRUPTED with what was judged, exit 130', async () => {
    const s = await interrupt(
      ['conform', '--base-url', server.baseUrl, '--api-key', KEY, '--budget', '20000'],
      /\[conform(: coverage)?\] \d+\//,
      ['SIGINT'],
    );
    expect(s.code, s.out).toBe(130);
    expect(sentAfter(s.signalledAt + STOP_SENDING_MS)).toBe(0);
    const report = reportOf(s);
    expect(report.aborted).toMatchObject({ code: 'INTERRUPTED', message: expect.stringContaining('SIGINT') });
    expect(report.checks.some((c) => c.outcome === 'pass')).toBe(true); // what was judged is kept
    expect(
      report.checks.filter((c) => c.outcome === 'skip' && /interrupted/.test(c.skipReason ?? '')).length,
    ).toBeGreaterThan(0);
    expect(s.out).toMatch(/^INCOMPLETE/m);
    expect(s.out).toContain(join(s.reportDir, 'latest', 'report.html'));
    // junit.xml and report.html are written too, whole.
    expect(readFileSync(join(s.reportDir, 'latest', 'junit.xml'), 'utf8')).toMatch(/<\/testsuites>\s*$/);
    expect(readFileSync(join(s.reportDir, 'latest', 'report.html'), 'utf8')).toMatch(/<\/html>\s*$/);
  }, 90_000);

  test('mid-probe (quota), SIGTERM: the probe cut short, its open checks not run, exit 143', async () => {
    const s = await interrupt(
      ['quota', '--base-url', server.baseUrl, '--key', `free=${FREE}`, '--plans', plansFile],
      /\[quota free: minute\]/,
      ['SIGTERM'],
    );
    expect(s.code, s.out).toBe(143);
    expect(sentAfter(s.signalledAt + STOP_SENDING_MS)).toBe(0);
    const report = reportOf(s);
    expect(report.aborted?.code).toBe('INTERRUPTED');
    expect(report.checks.some((c) => c.outcome === 'pass' && c.level === 'MUST' && /day/.test(c.id))).toBe(false);
    expect(
      report.checks
        .filter((c) => c.outcome === 'skip')
        .map((c) => c.skipReason)
        .join('\n'),
    ).toMatch(/interrupted/);
    expect(s.exitedAt - s.signalledAt).toBeLessThan(5000);

    // Its journal records the signal: re-judged, INTERRUPTED and exit 143 again, not INCOMPLETE for the exchanges it never sent.
    const journal = join(s.reportDir, 'latest', 'journal.jsonl.gz');
    const header = JSON.parse(gunzipSync(readFileSync(journal)).toString('utf8').split('\n')[0]!) as {
      interrupted?: string;
    };
    expect(header.interrupted).toBe('SIGTERM');
    const again = mkdtempSync(join(dir, 'rejudged-'));
    const rejudged = await runCli(['quota', '--rejudge', journal, '--report-dir', again], { timeoutMs: 60_000 });
    expect(rejudged.code, rejudged.stdout + rejudged.stderr).toBe(143);
    expect(rejudged.stdout).toMatch(/The live run was interrupted by SIGTERM/);
    const r = JSON.parse(readFileSync(join(again, 'latest', 'report.json'), 'utf8')) as Report;
    expect(r.aborted).toEqual(report.aborted);
    expect(r.verdict).toBe(report.verdict);
    expect(r.checks.map((c) => c.id)).not.toContain('quota.journal.complete');
  }, 120_000);

  test('mid-certify (the embedded server), SIGINT during the first conform part: no later part starts, exit 130', async () => {
    const s = await interrupt(['certify', '--plans', plansFile], /\[conform\[free\]/, ['SIGINT']);
    expect(s.code, s.out).toBe(130);
    const report = reportOf(s);
    expect(report.kind).toBe('certify');
    expect(report.aborted?.code).toBe('INTERRUPTED');
    expect(report.checks.some((c) => c.id.startsWith('quota/'))).toBe(false);
    expect(s.exitedAt - s.signalledAt).toBeLessThan(5000);
  }, 90_000);

  test('a second signal exits at once, even with a request still in flight', async () => {
    // From the first signal on, every answer takes 8 s: the first signal waits for those in flight.
    const s = await interrupt(
      ['conform', '--base-url', server.baseUrl, '--api-key', KEY, '--budget', '20000'],
      /\[conform(: coverage)?\] \d+\//,
      ['SIGINT', 'SIGINT'],
      500,
      () => (hang = true),
    );
    hang = false;
    expect(s.code, s.out).toBe(130);
    expect(s.out).toMatch(/SIGINT again exits at once/);
    expect(s.exitedAt - s.signalledAt).toBeLessThan(3000);
  }, 90_000);
});
