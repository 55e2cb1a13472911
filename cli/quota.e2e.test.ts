// `petcert quota` end to end through the real CLI entry (cli/main.ts main): exit codes 0/1/2/3,
// report.json with checks and series, the key never in an artifact.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { listen, type RunningServer } from '../reference/index.ts';
import { main } from './main.ts';
import { parsePlansFile } from '../spec/plans.ts';
import { parseKeyFlag, parseOnly, quotaAction, registerQuota } from './quota.ts';

const dir = mkdtempSync(join(tmpdir(), 'petcert-quota-cli-'));
const plansJson = {
  windows: { minuteSeconds: 2, daySeconds: 12 },
  plans: { free: { perMinute: 3, perDay: 14 }, pro: { perMinute: 5, perDay: 24 } },
};
const plansFile = join(dir, 'plans.json');
writeFileSync(plansFile, JSON.stringify(plansJson));
const key = 'pc_free_cli_secret_zzzz';
/** The --json run's own key: the first block spends `key`'s day, whose window a loaded machine has not ended yet. */
const jsonKey = 'pc_free_cli_json_yyyy';
let good: RunningServer;
let faulty: RunningServer;

beforeAll(async () => {
  good = await listen({ plans: parsePlansFile(plansJson), keys: { [key]: 'free', [jsonKey]: 'free' } });
  faulty = await listen({ plans: parsePlansFile(plansJson), keys: { [key]: 'free' }, faults: { overAdmit: 1 } });
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await Promise.all([good.close(), faulty.close()]);
});

async function quota(args: string[]): Promise<number> {
  process.exitCode = undefined;
  const code = await main(['node', 'petcert', 'quota', ...args]);
  process.exitCode = undefined;
  return code;
}

describe.concurrent('petcert quota', () => {
  it('exits 0 on the reference server and writes report.json with series, key redacted', async () => {
    const out = join(dir, 'good');
    expect(
      await quota([
        '--base-url',
        good.baseUrl,
        '--key',
        `free=${key}`,
        '--plans',
        plansFile,
        '--only',
        'minute',
        '--report-dir',
        out,
      ]),
    ).toBe(0);
    const text = readFileSync(join(out, 'latest', 'report.json'), 'utf8');
    const report = JSON.parse(text);
    expect(report.kind).toBe('quota');
    expect(report.series['minute:free'].length).toBeGreaterThan(3);
    expect(report.checks.find((c: { id: string }) => c.id === 'quota.minute.exact[free]').outcome).toBe('pass');
    expect(text + readFileSync(join(out, 'latest', 'junit.xml'), 'utf8')).not.toContain(key);
  });

  it('exits 1 when a plan is over-admitted', async () => {
    expect(
      await quota([
        '--base-url',
        faulty.baseUrl,
        '--key',
        `free=${key}`,
        '--plans',
        plansFile,
        '--only',
        'minute',
        '--report-dir',
        join(dir, 'bad'),
      ]),
    ).toBe(1);
  });

  it('exits 3 when the target is unreachable', async () => {
    expect(
      await quota([
        '--base-url',
        'http://127.0.0.1:9/v1',
        '--key',
        `free=${key}`,
        '--plans',
        plansFile,
        '--only',
        'minute',
        '--report-dir',
        join(dir, 'dead'),
      ]),
    ).toBe(3);
  });

  it.for([
    ['no --base-url', ['--key', `free=${key}`]],
    ['no --key', ['--base-url', 'http://127.0.0.1:9/v1']],
    ['a malformed --key', ['--base-url', 'http://127.0.0.1:9/v1', '--key', 'free']],
    ['an unknown plan', ['--base-url', 'http://127.0.0.1:9/v1', '--key', `gold=${key}`]],
    ['an unknown probe', ['--base-url', 'http://127.0.0.1:9/v1', '--key', `free=${key}`, '--only', 'hourly']],
    ['a production URL', ['--base-url', 'https://api.animalstore.example/v1', '--key', `free=${key}`]],
    [
      'a missing plans file',
      ['--base-url', 'http://127.0.0.1:9/v1', '--key', `free=${key}`, '--plans', join(dir, 'nope.json')],
    ],
  ] as const)('exits 2 for %s', async ([, args]) => {
    expect(await quota([...args])).toBe(2);
  });
});

describe('flag parsing', () => {
  it('splits PLAN=KEY at the first "=" (keys may contain "=")', () => {
    expect(parseKeyFlag('pro=abc=def')).toEqual({ plan: 'pro', key: 'abc=def' });
  });
  it('accepts repeated and comma-separated --only', () => {
    expect(parseOnly(['minute,day', 'burst'])).toEqual(['minute', 'day', 'burst']);
    expect(parseOnly([])).toBeUndefined();
  });
});

describe('petcert quota output and keys', () => {
  it('--json prints report.json alone on stdout, the verdict and where the report went on stderr; keys from env', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await quotaAction(
      {
        baseUrl: good.baseUrl,
        key: ['free=env:PETCERT_TEST_FREE_KEY'],
        plans: plansFile,
        only: ['minute'],
        reportDir: join(dir, 'json'),
        failOn: 'must',
        json: true,
      },
      { log: (s) => out.push(s), err: (s) => err.push(s) },
      { PETCERT_TEST_FREE_KEY: jsonKey },
    );
    expect(code, err.join('\n')).toBe(0);
    expect(out).toHaveLength(1);
    expect(JSON.parse(out[0]!).kind).toBe('quota');
    expect(out[0]).not.toContain(jsonKey);
    expect(err.join('\n')).toMatch(/^PASS/m);
    expect(err.join('\n')).toContain(join(dir, 'json', 'latest', 'report.html'));
  });

  it('--fail-on should is accepted; another level is a usage error that names the choices', async () => {
    await expect(
      quotaAction({ baseUrl: good.baseUrl, key: [`free=${key}`], only: [], reportDir: dir, failOn: 'may' }),
    ).rejects.toThrow(/"must" or "should"/);
  });

  it.for(['http://127.0.0.1:1/abcv1', 'http://127.0.0.1:1/x?v=v1', 'ftp://127.0.0.1/v1', 'http://u:p@127.0.0.1:1/v1'])(
    '--base-url %s is refused like conform refuses it',
    async (baseUrl) => {
      await expect(
        quotaAction({ baseUrl, key: [`free=${key}`], only: [], reportDir: dir, failOn: 'must' }),
      ).rejects.toThrow(/^--base-url: /);
    },
  );

  it('--timeout takes a positive integer of ms', async () => {
    await expect(
      quotaAction({
        baseUrl: good.baseUrl,
        key: [`free=${key}`],
        only: [],
        reportDir: dir,
        failOn: 'must',
        timeout: '0',
      }),
    ).rejects.toThrow(/--timeout: must be an integer ≥ 1/);
    await expect(
      quotaAction({
        baseUrl: good.baseUrl,
        key: [`free=${key}`],
        only: [],
        reportDir: dir,
        failOn: 'must',
        timeout: '2s',
      }),
    ).rejects.toThrow(/--timeout/);
  });

  it('PLAN=env:NAME with NAME unset says what to export', () => {
    expect(() => parseKeyFlag('free=env:NOPE_NOT_SET', {})).toThrow(/export NOPE_NOT_SET=/);
    expect(parseKeyFlag('free=env:K', { K: 'abc' })).toEqual({ plan: 'free', key: 'abc' });
  });

  it('--help lists examples, the env: key form and the exit codes', async () => {
    const { Command } = await import('commander');
    const program = new Command().exitOverride();
    let help = '';
    program.configureOutput({ writeOut: (s) => (help += s) });
    registerQuota(program);
    expect(() => program.parse(['node', 'petcert', 'quota', '--help'])).toThrow();
    expect(help).toMatch(/Examples:/);
    expect(help).toContain('free=env:PETCERT_FREE_KEY');
    expect(help).toMatch(/--fail-on/);
    expect(help).toMatch(/--json/);
    expect(help).toMatch(/Exit codes: 0/);
  });
});
