// `npx tsx bench/capacity-scale.ts`: a realistic customer base. 10,000 keys (free 8,000, pro 1,500,
// business 500) in `petcert serve --key-pool` (its own process), every key carrying load, at RATE
// req/s (BENCH_SCALE_RATE; default 1500: what this 2-core machine sustained with server and k6 side by
// side while other work ran; alone it sustains 3,500, figures for both in load/capacity/README.md):
// petcert's capacity bundle (one step, list requests, no canaries) against a bare k6 script
// doing the same requests (GET /pets with the bundle's cycle of list queries and its request timeout,
// the keys round robin from a SharedArray, one
// constant-arrival-rate scenario, as many VUs pre-allocated as the bundle's scenarios together),
// alternated ROUNDS times. Printed as ratios of
// one run (medians): achieved/offered, k6 peak RSS, CPU per request. Goals: ≥ 0.95× the bare rate,
// ≤ 1.2× its memory. Also each script's RSS and live heap (k6's heap profile after a forced collection)
// with its VUs initialised and no request sent (`k6 run --paused`): what the VUs cost apart from the
// requests in flight and the garbage collector's slack (peak RSS ≈ 40 MB + 2 × the live heap).
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { documentFromEnv, documentText } from '../load/capacity/document.ts';
import { parseKeysFile } from '../load/capacity/keys-file.ts';
import { listQueries } from '../load/capacity/requests.ts';
import { parseRunnerResults } from '../load/capacity/result.ts';
import { stepVUs } from '../load/capacity/vus.ts';
import { findK6 } from '../load/k6-binary.ts';
import { runK6Process } from '../load/k6-process.ts';
import { buildK6 } from '../scripts/build-k6.ts';
import { LIMIT, PET_STATUSES } from '../spec/contract.ts';
import { specPlanTable } from '../spec/plans.ts';
import { startServe } from './serve-process.ts';

const RATE = Number(process.env.BENCH_SCALE_RATE ?? 1500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const POOL = 'free=8000,pro=1500,business=500';
const VUS = 300;

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'petcert-bench-scale-'));

const startServer = (keysFile: string) => startServe(['--key-pool', POOL, '--key-pool-file', keysFile], 30_000);

const BARE =
  `import http from 'k6/http';
import { SharedArray } from 'k6/data';
const keys = new SharedArray('keys', () => open(__ENV.KEYS_FILE).split('\\n').filter((l) => l && !l.startsWith('#')).map((l) => l.slice(l.indexOf('=') + 1)));
export const options = { discardResponseBodies: true, scenarios: { bare: { executor: 'constant-arrival-rate', rate: Number(__ENV.RATE),` +
  ` timeUnit: '1s', duration: __ENV.SECONDS + 's', preAllocatedVUs: Number(__ENV.PRE), maxVUs: Number(__ENV.VUS) } } };
let i = __VU * 7919;
const queries = JSON.parse(__ENV.QUERIES);
const timeout = Number(__ENV.TIMEOUT_MS);
export default async function () { i++; await http.asyncRequest('GET', __ENV.BASE_URL + '/pets' + queries[i % queries.length], null, {` +
  ` headers: { authorization: 'Bearer ' + keys[i % keys.length] }, timeout }); }
export function handleSummary(d) { return { stdout: 'BARE ' + JSON.stringify({ requests: d.metrics.http_reqs.values.count }) + '\\n' }; }
`;

interface Measured {
  rate: number;
  rssKb: number;
  cpuMsPerRequest: number;
}

/** k6 under /usr/bin/time: its peak RSS and CPU seconds, from time's last stderr line. */
async function timed(
  k6: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ stdout: string; rssKb: number; cpuS: number }> {
  const run = await runK6Process({
    k6: '/usr/bin/time',
    args: ['-f', 'PETCERT_TIME %M %U %S', k6, ...args],
    env,
    timeoutMs: (SECONDS + 90) * 1000,
  });
  const m = /PETCERT_TIME (\d+) ([\d.]+) ([\d.]+)/.exec(run.stderr);
  if (!m) throw new Error(`no /usr/bin/time figures (exit ${run.code}):\n${run.stderr.slice(-2000)}`);
  return { stdout: run.stdout, rssKb: Number(m[1]), cpuS: Number(m[2]) + Number(m[3]) };
}

async function ours(k6: string, script: string, docFile: string): Promise<Measured> {
  const run = await timed(k6, ['run', '--quiet', '--log-format', 'raw', script], { CAPACITY_RUN: docFile });
  const step = parseRunnerResults(run.stdout, 'k6')[0]!.steps[0]!;
  return { rate: step.requests / SECONDS, rssKb: run.rssKb, cpuMsPerRequest: (1000 * run.cpuS) / step.requests };
}

/** The bare script starts with as many VUs as the bundle's scenarios together (load/capacity/vus.ts): the same pool. */
async function bare(k6: string, script: string, env: Record<string, string>): Promise<Measured> {
  const run = await timed(k6, ['run', '--quiet', '--log-format', 'raw', script], env);
  const requests = (JSON.parse(/BARE (\{.*\})/.exec(run.stdout)![1]!) as { requests: number }).requests;
  return { rate: requests / SECONDS, rssKb: run.rssKb, cpuMsPerRequest: (1000 * run.cpuS) / requests };
}

/** A live process's RSS; one that has exited is a bench failure worth its own words. */
function rssKbOf(pid: number): number {
  if (!existsSync(`/proc/${pid}`))
    throw new Error(`k6 (pid ${pid}) exited before its VUs were measured: run it by hand to see why`);
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
}

/** A free loopback port for k6's REST API (k6 does not print the one it takes for :0). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** k6's live heap after a forced collection (its pprof endpoint's HeapAlloc): repeatable, unlike RSS. */
async function liveHeapKb(port: number): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/debug/pprof/heap?gc=1&debug=1`, {
    signal: AbortSignal.timeout(10_000),
  });
  const bytes = Number(/# HeapAlloc = (\d+)/.exec(await res.text())?.[1]);
  if (!(bytes > 0)) throw new Error(`no HeapAlloc in k6's heap profile (HTTP ${res.status})`);
  return bytes / 1024;
}

interface Idle {
  rssKb: number;
  liveKb: number;
}

/** `k6 run --paused` once its RSS stops growing (VUs initialised, nothing sent; at most 30 s): RSS and live heap. */
async function pausedFigures(k6: string, script: string, env: Record<string, string>): Promise<Idle> {
  const port = await freePort();
  const args = ['run', '--paused', '--quiet', '--profiling-enabled', '--address', `127.0.0.1:${port}`, script];
  const child = spawn(k6, args, { env: { ...process.env, ...env }, stdio: 'ignore' });
  try {
    let last = 0;
    for (let tick = 0, still = 0; tick < 60 && still < 4; tick++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const rss = rssKbOf(child.pid!);
      still = rss === last ? still + 1 : 0;
      last = rss;
    }
    return { rssKb: last, liveKb: await liveHeapKb(port) };
  } finally {
    child.kill('SIGKILL');
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const k6 = findK6();
const script = (await buildK6(join(dir, 'dist'), [join(root, 'load/k6/capacity.ts')]))[0]!;
writeFileSync(join(dir, 'bare.js'), BARE);
const keysFile = join(dir, 'keys.txt');
const server = await startServer(keysFile);
try {
  const keys = parseKeysFile(readFileSync(keysFile, 'utf8'), keysFile);
  const table = specPlanTable();
  // planned = Σ customers × perMinute × u / 60: u chosen so that the one step offers RATE req/s.
  const perSecond = (8000 * 60 + 1500 * 300 + 500 * 1000) / 60;
  const env = {
    MIX: POOL,
    UTILISATION: String(RATE / perSecond),
    STEPS: '2',
    MAX_FACTOR: '1',
    STEP_SECONDS: String(SECONDS),
    CANARIES: '0',
    OPS: 'list=1',
    STEP: '1',
    MAX_VUS: String(VUS),
  };
  const doc = documentFromEnv(env, server.baseUrl, table, keys);
  const docFile = join(dir, 'run.json');
  writeFileSync(docFile, documentText(doc), { mode: 0o600 });
  const carrying = Object.values(doc.plan.load).reduce((n, ks) => n + ks.length, 0);
  // The bare script's one scenario has the VUs the bundle's scenarios have together, all started before the step.
  const pre = Object.values(doc.plan.steps[1]!.perPlan).reduce((n, rate) => n + stepVUs(rate, VUS), 0);
  console.log(
    `k6: ${k6}; ${keys.length} keys (${carrying} carrying load), ${doc.plan.steps[1]!.offeredRate.toFixed(0)} req/s offered for` +
      ` ${SECONDS} s, ${ROUNDS} rounds, ${pre} VUs pre-allocated for both, ≤ ${VUS} per scenario`,
  );
  const a: Measured[] = [];
  const b: Measured[] = [];
  const bareEnv = {
    BASE_URL: server.baseUrl,
    KEYS_FILE: keysFile,
    RATE: String(RATE),
    SECONDS: String(SECONDS),
    VUS: String(pre),
    PRE: String(pre),
    // The same list requests as the bundle's: pages of the same sizes.
    QUERIES: JSON.stringify(listQueries(LIMIT.max, PET_STATUSES)),
    TIMEOUT_MS: String(doc.requestTimeoutMs),
  };
  const idleOurs = await pausedFigures(k6, script, { CAPACITY_RUN: docFile });
  const idleBare = await pausedFigures(k6, join(dir, 'bare.js'), bareEnv);
  const mb = (kb: number): string => `${(kb / 1024).toFixed(1)} MB`;
  const idle = (f: keyof Idle): string =>
    `petcert ${mb(idleOurs[f])}, bare ${mb(idleBare[f])}, ${(idleOurs[f] / idleBare[f]).toFixed(3)}×`;
  console.log(
    `VUs initialised, nothing sent (k6 run --paused): RSS ${idle('rssKb')}; live heap after a forced GC ${idle('liveKb')}`,
  );
  for (let round = 0; round < ROUNDS; round++) {
    a.push(await ours(k6, script, docFile));
    b.push(await bare(k6, join(dir, 'bare.js'), bareEnv));
  }
  const show = (name: string, xs: Measured[]) =>
    `${name}: ${xs
      .map(
        (x) =>
          `${x.rate.toFixed(0)} req/s (${(x.rate / RATE).toFixed(3)} × offered), ${(x.rssKb / 1024).toFixed(0)} MB peak` +
          ` RSS, ${x.cpuMsPerRequest.toFixed(3)} ms CPU/request`,
      )
      .join('; ')}`;
  console.log(show('petcert capacity bundle', a));
  console.log(show('bare k6 script        ', b));
  const ratio = (f: (m: Measured) => number) => median(a.map(f)) / median(b.map(f));
  const rate = ratio((m) => m.rate);
  const rss = ratio((m) => m.rssKb);
  const cpu = ratio((m) => m.cpuMsPerRequest);
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT MET');
  console.log(
    `ratios (petcert / bare, medians of ${ROUNDS}): rate ${rate.toFixed(3)}× (goal ≥ 0.95: ${verdict(rate >= 0.95)}), peak RSS` +
      ` ${rss.toFixed(3)}× (goal ≤ 1.2: ${verdict(rss <= 1.2)}), CPU per request ${cpu.toFixed(3)}×`,
  );
} finally {
  server.stop();
  rmSync(dir, { recursive: true, force: true }); // the keys, the document, the bundles: 27 were left in /tmp
}
