// `petcert capacity` refuses what it cannot run, before any load: bad flags and too few keys exit 2
// with the flag and the fix named; no k6 exits 2 naming how to get one; an unreachable target exits 3.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../testkit/cli/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'petcert-capacity-cli-'));
const keysFile = join(dir, 'keys.txt');
writeFileSync(keysFile, 'free=k1\nfree=k2\nfree=k3\n');
const plans = join(dir, 'plans.json');
writeFileSync(
  plans,
  JSON.stringify({
    windows: { minuteSeconds: 10, daySeconds: 86400 },
    plans: { free: { perMinute: 60, perDay: 1_000_000 } },
  }),
);
const fakeBundle = join(dir, 'capacity.js');
writeFileSync(fakeBundle, '// never run: the run stops before k6\n');
// Port 9 (discard) on loopback: nothing listens there.
const base = [
  'capacity',
  '--base-url',
  'http://127.0.0.1:9/v1',
  '--keys-file',
  keysFile,
  '--plans',
  plans,
  '--script',
  fakeBundle,
  '--report-dir',
  join(dir, 'reports'),
];
const run = (args: string[], env: Record<string, string> = { K6: '/bin/true' }) =>
  runCli([...base, ...args], { env, timeoutMs: 30_000 });

describe('petcert capacity before any load', () => {
  it.for([
    [['--mix', 'free=1', '--slo', 'p99<fast'], '--slo'],
    [['--mix', 'gold=1'], '--mix'],
    [['--mix', 'free=1', '--utilisation', '2'], '--utilisation'],
    [[], '--mix: is required'],
    [['--mix', 'free=2'], 'add 2 more free keys (5 needed, 3 given)'],
    // 6 req/s planned: a free canary needs 9 req/s to cross its quota, beyond 20 % of that step.
    [['--mix', 'free=1'], 'no canary can cross its quota during step 4 (6 req/s, 60 s)'],
  ] as const)('%j → exit 2 naming %s', async ([args, text]) => {
    const r = await run([...args]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(text);
  });

  it('without k6: exit 2 naming npm run k6:build and K6', async () => {
    const r = await run(['--mix', 'free=1', '--no-canaries'], { K6: join(dir, 'no-such-k6') });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/npm run k6:build/);
    expect(r.stderr).toMatch(/K6=/);
  });

  it('an unreachable target: exit 3, no report of a "breaking rate"', async () => {
    const r = await run(['--mix', 'free=1', '--no-canaries']);
    expect(r.code, r.stdout + r.stderr).toBe(3);
    // The identification's verdict lines say it (docs/decisions/003), with the report: no rate judged.
    expect(r.stdout + r.stderr).toMatch(/unreachable/);
    expect(r.stdout + r.stderr).not.toMatch(/breaking|knee/i);
  });
});
