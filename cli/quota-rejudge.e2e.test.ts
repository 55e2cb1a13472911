// `petcert quota` live against the reference server, then `--rejudge` of the journal it wrote: the same
// checks (id, outcome, messages, reasons) and the same exit code, offline, for a correct server, a
// correct variant and a faulty one; a cut-short journal is INCOMPLETE naming what it lacks, never PASS.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { listen, type RunningServer } from '../reference/index.ts';
import { parsePlansFile } from '../spec/plans.ts';
import type { Report } from '../report/model.ts';
import { main } from './main.ts';
import { checkVerdicts, readLatestReport } from '../testkit/journals/recordings.ts';

const dir = mkdtempSync(join(tmpdir(), 'petcert-rejudge-'));
const plansJson = {
  windows: { minuteSeconds: 2, daySeconds: 20 },
  plans: { free: { perMinute: 20, perDay: 100 }, pro: { perMinute: 40, perDay: 160 } },
};
const plansFile = join(dir, 'plans.json');
writeFileSync(plansFile, JSON.stringify(plansJson));
const keys = { pc_free_rejudge_secret_zz: 'free', pc_pro_rejudge_secret_zzz: 'pro' };
const servers: Record<string, RunningServer> = {};
/** A live run of every probe takes about two day windows (40 s), longer on a loaded machine. */
const LIVE = { timeout: 150_000 };

beforeAll(async () => {
  const plans = parsePlansFile(plansJson);
  servers.reference = await listen({ plans, keys });
  servers.overAdmit = await listen({ plans, keys, faults: { overAdmit: 1 } });
  servers.cut = await listen({ plans, keys });
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await Promise.all(Object.values(servers).map((s) => s.close()));
});

async function quota(args: string[]): Promise<number> {
  process.exitCode = undefined;
  const code = await main(['node', 'petcert', 'quota', ...args]);
  process.exitCode = undefined;
  return code;
}

const readReport = readLatestReport;
const verdicts = checkVerdicts;

describe.concurrent('petcert quota --rejudge', () => {
  it.for([
    ['reference', 0, []],
    ['overAdmit', 1, ['--only', 'minute,burst']],
  ] as const)(
    'the %s server: live, then re-judged offline, the same checks and exit %i',
    LIVE,
    async ([name, exit, only]) => {
      const live = join(dir, `${name}-live`);
      const args = Object.entries(keys).flatMap(([key, plan]) => ['--key', `${plan}=${key}`]);
      const code = await quota([
        '--base-url',
        servers[name]!.baseUrl,
        ...args,
        ...only,
        '--plans',
        plansFile,
        '--report-dir',
        live,
      ]);
      expect(code).toBe(exit);
      const journalPath = join(live, 'latest', 'journal.jsonl.gz');
      const text = gunzipSync(readFileSync(journalPath)).toString('utf8');
      for (const key of Object.keys(keys)) expect(text).not.toContain(key);

      const again = join(dir, `${name}-rejudged`);
      const started = Date.now();
      expect(await quota(['--rejudge', journalPath, '--report-dir', again])).toBe(code);
      const took = Date.now() - started;
      const [a, b] = [readReport(live), readReport(again)];
      expect(verdicts(b)).toEqual(verdicts(a));
      expect(b.verdict).toBe(a.verdict);
      expect(b.requests).toBe(a.requests);
      // Sample times are server ms read off the local clock at each answer: the live run read it a little later.
      const untimed = (r: Report) =>
        Object.fromEntries(Object.entries(r.series!).map(([name, samples]) => [name, samples.map(({ t, ...s }) => s)]));
      expect(untimed(b)).toEqual(untimed(a));
      const liveMs = Date.parse(a.finishedAt) - Date.parse(a.startedAt);
      expect(took).toBeLessThan(liveMs);
    },
  );

  it('a journal cut short is INCOMPLETE, naming the first request it lacks and the fix; never PASS', LIVE, async () => {
    const live = join(dir, 'cut-live');
    const key = Object.keys(keys)[0]!;
    expect(
      await quota([
        '--base-url',
        servers.cut!.baseUrl,
        '--key',
        `free=${key}`,
        '--plans',
        plansFile,
        '--only',
        'minute',
        '--report-dir',
        live,
      ]),
    ).toBe(0);
    const lines = gunzipSync(readFileSync(join(live, 'latest', 'journal.jsonl.gz')))
      .toString('utf8')
      .split('\n');
    const cut = join(dir, 'cut.jsonl.gz');
    writeFileSync(cut, gzipSync(lines.slice(0, 4).join('\n') + '\n'));
    const again = join(dir, 'cut-rejudged');
    expect(await quota(['--rejudge', cut, '--report-dir', again])).toBe(4);
    const report = readReport(again);
    expect(report.verdict).toBe('incomplete');
    const journal = report.checks.find((c) => c.id === 'quota.journal.complete')!;
    expect(journal.skipReason).toMatch(/no answer for request 4 of key free GET \/pets\?limit=1 \(it recorded 3\)/);
    expect(journal.fix).toMatch(/re-record the journal with this petcert version/);
    const exact = report.checks.find((c) => c.id === 'quota.minute.exact[free]')!;
    expect(exact.outcome).toBe('skip');
    expect(exact.skipReason).toMatch(/no answer for request 4/);
  });

  it.for([
    ['not gzip nor JSON', Buffer.from('hello\n')],
    ['bad JSON in gzip', gzipSync('{"format":\n')],
    ['no header', gzipSync('{"seq":1}\n')],
    [
      'another version',
      gzipSync(JSON.stringify({ format: 'petcert-quota-journal', version: 99, petcert: '0.1.0' }) + '\n'),
    ],
  ] as const)('a malformed journal (%s) exits 2 and writes nothing', async ([name, bytes]) => {
    const file = join(dir, `${name.replace(/\W+/g, '-')}.jsonl.gz`);
    writeFileSync(file, bytes);
    const out = join(dir, `malformed-${name.replace(/\W+/g, '-')}`);
    expect(await quota(['--rejudge', file, '--report-dir', out])).toBe(2);
    expect(readFileSync(file)).toEqual(Buffer.from(bytes));
    expect(() => readFileSync(join(out, 'latest', 'report.json'))).toThrow();
  });

  it('--rejudge refuses the flags that would change the recorded run', async () => {
    expect(await quota(['--rejudge', join(dir, 'any.gz'), '--base-url', 'http://127.0.0.1:9/v1'])).toBe(2);
  });
});
