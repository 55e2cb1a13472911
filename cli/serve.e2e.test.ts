// `petcert serve` as a user runs it: starts, prints the URL and keys, serves, stops on SIGTERM;
// bad flags exit 2 with a message naming the flag.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { agent, send } from '../testkit/reference/e2e-client.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin/petcert.js');
afterAll(() => agent.close());

test('serve --port 0 --key --plans: prints URL and keys, answers, closes on SIGTERM', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'petcert-serve-')), 'plans.json');
  writeFileSync(
    file,
    JSON.stringify({ windows: { minuteSeconds: 2, daySeconds: 40 }, plans: { free: { perMinute: 7 } } }),
  );
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--key', 'demo-key=free', '--plans', file], {
    cwd: root,
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const deadline = Date.now() + 20_000;
    while (!/API keys/.test(out) || !/demo-key/.test(out)) {
      if (Date.now() > deadline) throw new Error(`serve did not start: ${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const baseUrl = /listening on (\S+)/.exec(out)![1]!;
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(out).toMatch(/demo-key\s+plan=free\s+7\/minute\s+1000\/day/);
    expect(out).toContain('minute 2 s, day 40 s');
    const res = await send(`${baseUrl}/pets`, { key: 'demo-key' });
    expect([res.status, res.headers['x-ratelimit-limit']]).toEqual([200, '7']);
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
});

test.for<[string[], string]>([
  [['--port', 'abc'], '--port'],
  [['--key', 'x=gold'], 'unknown plan'],
])('serve %j exits 2 naming the problem', ([args, text]) => {
  const run = spawnSync(process.execPath, [bin, 'serve', ...args], { cwd: root, encoding: 'utf8', timeout: 20_000 });
  expect(run.status).toBe(2);
  expect(run.stderr).toContain(text);
});
