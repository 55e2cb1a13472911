// Black-box probe of the `petcert serve` command line (reference/README.md): default keys printed at start
// and usable; every usage or configuration problem exits 2 with one clear line, no stack trace.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { agent, call, runCli, startServe, type Served } from '../testkit/reference/blackbox-client.ts';
import { rateOf } from '../testkit/reference/blackbox-expect.ts';

const dir = mkdtempSync(join(tmpdir(), 'petcert-blackbox-cli-'));
function file(name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}
const PLANS = file(
  'plans.json',
  JSON.stringify({
    windows: { minuteSeconds: 2, daySeconds: 40 },
    plans: {
      free: { perMinute: 5, perDay: 12 },
      enterprise: { perMinute: 7, perDay: 70 },
      gold: { perMinute: 3, perDay: 9 },
    },
  }),
);

describe('without --key: one printed key per plan with figures', () => {
  let srv: Served;
  beforeAll(async () => {
    srv = await startServe(['--port', '0', '--plans', PLANS], 5);
  });
  afterAll(async () => {
    expect(await srv?.stop()).toBe(0);
    await agent.close();
  });

  test("free, pro, business, and the plans file's enterprise and gold, each answering with its figures", async () => {
    expect(srv.keys.map((k) => [k.plan, k.perMinute, k.perDay])).toEqual([
      ['free', 5, 12],
      ['pro', 300, 10_000],
      ['business', 1000, 100_000],
      ['enterprise', 7, 70],
      ['gold', 3, 9],
    ]);
    expect(new Set(srv.keys.map((k) => k.key)).size).toBe(5);
    for (const { key, perMinute } of srv.keys) {
      const res = await call(srv.origin, 'GET', '/v1/pets', { key });
      expect(res.status, key).toBe(200);
      expect(rateOf(res, 40)).toMatchObject({ limit: perMinute, remaining: perMinute - 1 });
    }
  });
});

let busyPort = 0;
const busy = createServer();
beforeAll(
  () =>
    new Promise<void>((resolve) =>
      busy.listen(0, '127.0.0.1', () => {
        busyPort = (busy.address() as { port: number }).port;
        resolve();
      }),
    ),
);
afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

const USAGE: Array<[string, () => string[], RegExp]> = [
  ['port in use', () => ['--port', String(busyPort)], /--port.*EADDRINUSE/],
  ['port not a number', () => ['--port', 'abc'], /--port.*"abc"/],
  ['port out of range', () => ['--port', '70000'], /--port.*"70000"/],
  ['unknown flag', () => ['--bogus'], /unknown option '--bogus'/],
  ['stray argument', () => ['extra'], /too many arguments/],
  ['key without plan', () => ['--key', 'k1'], /--key.*KEY=PLAN.*"k1"/],
  ['unknown plan', () => ['--key', 'k1=platinum'], /--key.*unknown plan "platinum"/],
  ['enterprise without figures', () => ['--key', 'k1=enterprise'], /--key.*enterprise.*perMinute and perDay/],
  ['missing plans file', () => ['--plans', join(dir, 'nope.json')], /nope\.json.*cannot read/],
  ['plans file not JSON', () => ['--plans', file('bad.json', '{bad')], /bad\.json.*not valid JSON/],
  ['plans file an array', () => ['--plans', file('arr.json', '[]')], /arr\.json.*JSON object/],
  [
    'negative figure',
    () => ['--plans', file('neg.json', '{"plans":{"free":{"perMinute":-1}}}')],
    /plans\.free\.perMinute.*-1/,
  ],
  [
    'figure as a string',
    () => ['--plans', file('str.json', '{"plans":{"free":{"perDay":"9"}}}')],
    /plans\.free\.perDay.*"9"/,
  ],
  ['zero window', () => ['--plans', file('zero.json', '{"windows":{"minuteSeconds":0}}')], /windows\.minuteSeconds.*0/],
  ['unknown field', () => ['--plans', file('field.json', '{"plan":{}}')], /field\.json: plan: unknown field/],
  [
    'a plan twice (case-insensitive)',
    () => ['--plans', file('twice.json', '{"plans":{"free":{},"Free":{}}}')],
    /"free" given twice/,
  ],
];

describe.concurrent('usage and configuration errors exit 2', () => {
  test.for(USAGE)('%s', async ([, args, message]) => {
    const run = await runCli(['serve', '--port', '0', ...args()]);
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(run.stdout).not.toContain('listening');
  });
});
