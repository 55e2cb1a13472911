// `npx tsx bench/capacity.ts`: the capacity generator's honesty, in one run.
//  1. achieved/offered of the capacity bundle under the real k6 at 50, 200 and 800 req/s against the
//     reference server (`petcert serve` in its own process, a plan with room for every rate);
//  2. the generator's limit: the capacity bundle and a bare k6 script (constant arrival rate, one GET)
//     hitting the same endpoint of a trivial local target at a rate neither can reach, alternated
//     ROUNDS times (the machine is shared: medians, not one draw). Goal ≥ 0.9×.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { trivialTarget } from '../load/capacity/calibrate.ts';
import { documentFromEnv } from '../load/capacity/document.ts';
import { parseKeysFile } from '../load/capacity/keys-file.ts';
import { runCapacityK6 } from '../load/capacity/k6-run.ts';
import { findK6 } from '../load/k6-binary.ts';
import { runK6Process } from '../load/k6-process.ts';
import { parsePlansFile } from '../spec/plans.ts';
import { buildK6 } from '../scripts/build-k6.ts';
import { startServe } from './serve-process.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const RATES = [50, 200, 800];
const LIMIT_RATE = Number(process.env.BENCH_LIMIT_RATE ?? 8000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** The same pool of VUs for both: what a generator reaches with it is the comparison. */
const VUS = 255;
const GOAL = 0.9;
const PER_MINUTE = 1_000_000; // a plan with room for every rate here: one key carries 15,000 req/s
const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'petcert-bench-capacity-'));

const startServer = (plansFile: string, keysFile: string) =>
  startServe(['--plans', plansFile, '--key-pool', 'bench=2', '--key-pool-file', keysFile], 20_000);

/** The capacity bundle's one step at `rate` req/s: planned = 1 customer × PER_MINUTE × u / 60. */
function stepEnv(rate: number, ops = 'list=80,get=15,create=5'): Record<string, string> {
  return {
    MIX: 'bench=1',
    UTILISATION: String((rate * 60) / PER_MINUTE),
    STEPS: '2',
    MAX_FACTOR: '1',
    STEP_SECONDS: String(SECONDS),
    CANARIES: '0',
    OPS: ops,
    STEP: '1',
  };
}

const BARE =
  `import http from 'k6/http';
export const options = { discardResponseBodies: true, scenarios: { bare: { executor: 'constant-arrival-rate', rate: Number(__ENV.RATE),` +
  ` timeUnit: '1s', duration: __ENV.SECONDS + 's', preAllocatedVUs: Number(__ENV.VUS), maxVUs: Number(__ENV.VUS) } } };
export default async function () { await http.asyncRequest('GET', __ENV.BASE_URL + '/pets', null, { headers: { authorization: 'Bearer bench' } }); }
export function handleSummary(d) { return { stdout: 'BARE ' + JSON.stringify({ requests: d.metrics.http_reqs.values.count, dropped:` +
  ` (d.metrics.dropped_iterations || { values: { count: 0 } }).values.count }) + '\\n' }; }
`;

async function bareK6(k6: string, script: string, baseUrl: string, rate: number): Promise<number> {
  const env = { BASE_URL: baseUrl, RATE: String(rate), SECONDS: String(SECONDS), VUS: String(VUS) };
  const run = await runK6Process({
    k6,
    args: ['run', '--quiet', '--log-format', 'raw', script],
    env,
    timeoutMs: (SECONDS + 60) * 1000,
  });
  const line = /BARE (\{.*\})/.exec(run.stdout)?.[1];
  if (!line) throw new Error(`bare k6 printed no result: ${run.stdout}`);
  return (JSON.parse(line) as { requests: number }).requests / SECONDS;
}

const k6 = findK6();
const script = (await buildK6(join(dir, 'dist'))).find((f) => f.endsWith('capacity.js'))!;
const plansFile = join(dir, 'plans.json');
const keysFile = join(dir, 'keys.txt');
writeFileSync(plansFile, JSON.stringify({ plans: { bench: { perMinute: PER_MINUTE, perDay: 1_000_000_000 } } }));
const server = await startServer(plansFile, keysFile);
const keys = parseKeysFile(readFileSync(keysFile, 'utf8'), keysFile);
const table = parsePlansFile(JSON.parse(readFileSync(plansFile, 'utf8')));
const base = { k6, script, secrets: keys.map((k) => k.key) };
const timeoutMs = (SECONDS + 60) * 1000;
const doc = (env: Record<string, string>, baseUrl: string) => documentFromEnv(env, baseUrl, table, keys);
console.log(`k6: ${k6}; ${SECONDS} s per measurement`);
try {
  for (const rate of RATES) {
    const result = await runCapacityK6(base, doc(stepEnv(rate), server.baseUrl), timeoutMs);
    const s = result.steps[0]!;
    console.log(
      `reference server at ${rate} req/s offered: achieved ${(s.requests / s.seconds).toFixed(1)} req/s =` +
        ` ${(s.requests / s.seconds / s.offeredRate).toFixed(3)} × offered, dropped ${s.dropped}, p99 ${s.percentilesMs['99']?.toFixed(1)} ms`,
    );
  }
} finally {
  server.stop();
}
const trivial = await trivialTarget();
try {
  writeFileSync(join(dir, 'bare.js'), BARE);
  const ours: number[] = [];
  const bare: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const result = await runCapacityK6(
      base,
      doc({ ...stepEnv(LIMIT_RATE, 'list=1'), MAX_VUS: String(VUS) }, trivial.baseUrl),
      timeoutMs,
    );
    ours.push(result.steps[0]!.requests / SECONDS);
    bare.push(await bareK6(k6, join(dir, 'bare.js'), trivial.baseUrl, LIMIT_RATE));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const ratio = median(ours) / median(bare);
  const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
  console.log(
    `generator limit at ${LIMIT_RATE} req/s offered, ${VUS} VUs, trivial target: petcert capacity bundle ${list(ours)} req/s, bare k6` +
      ` ${list(bare)} req/s → medians ${ratio.toFixed(2)}× (goal ≥ ${GOAL}×)${ratio >= GOAL ? '' : '  BELOW GOAL'}`,
  );
} finally {
  await trivial.close();
}
