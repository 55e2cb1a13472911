// `npx tsx bench/reference.ts`: requests/s of GET /pets and POST /pets against the reference server
// (rate limiting active) and against a bare node:http server answering constant JSON, in one run.
// Each target runs in its own process; the load generator (undici Pool, keep-alive) runs here.
// Goal: reference ≥ 0.6× bare.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { BENCH_KEY } from './reference-target.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 32;
const GOAL = 0.6;
const POST_BODY = JSON.stringify({ name: 'bench', categoryId: 1, status: 'pending' });

type Target = { child: ChildProcess; port: number };

/** User+system CPU µs the target process has used so far. */
function cpuOf(target: Target): Promise<number> {
  return new Promise((resolve) => {
    target.child.once('message', (m) => {
      const { cpu } = m as { cpu: NodeJS.CpuUsage };
      resolve(cpu.user + cpu.system);
    });
    target.child.send('cpu');
  });
}

async function start(kind: 'bare' | 'reference'): Promise<Target> {
  const child = fork(fileURLToPath(new URL('./reference-target.ts', import.meta.url)), [kind], {
    execArgv: ['--import', 'tsx'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${kind} target exited (${code})`)));
  });
  return { child, port };
}

interface Tally {
  requests: number;
  seconds: number;
}

/** Keeps CONNECTIONS requests in flight for `seconds` on an open pool; returns what completed. */
async function measure(pool: Pool, method: 'GET' | 'POST', seconds: number): Promise<Tally> {
  const headers = { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' };
  const end = performance.now() + seconds * 1000;
  let done = 0;
  let bad = 0;
  const worker = async () => {
    while (performance.now() < end) {
      const res = await pool.request({ path: '/v1/pets', method, headers, body: method === 'POST' ? POST_BODY : null });
      await res.body.dump();
      if (res.statusCode >= 400) bad++;
      done++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  if (bad) throw new Error(`${bad} error responses during the ${method} measurement`);
  return { requests: done, seconds: (performance.now() - t0) / 1000 };
}

/**
 * Both targets measured in alternating short slices, so drift in the machine's load (other processes,
 * CPU frequency) falls on both alike; SECONDS in total per target and method.
 */
interface Figures {
  /** Requests per second. */
  rate: number;
  /** Target CPU µs per request (user + system): independent of the load generator's share of the machine. */
  cpuPerRequest: number;
}

async function compare(
  targets: { bare: Target; reference: Target },
  method: 'GET' | 'POST',
): Promise<{ bare: Figures; reference: Figures }> {
  const pools = {
    bare: new Pool(`http://127.0.0.1:${targets.bare.port}`, { connections: CONNECTIONS, pipelining: 1 }),
    reference: new Pool(`http://127.0.0.1:${targets.reference.port}`, { connections: CONNECTIONS, pipelining: 1 }),
  };
  const totals = { bare: { requests: 0, seconds: 0, cpu: 0 }, reference: { requests: 0, seconds: 0, cpu: 0 } };
  try {
    await measure(pools.bare, method, 0.5); // warm-up: JIT and connections on both sides
    await measure(pools.reference, method, 0.5);
    const slices = 10;
    for (let i = 0; i < slices; i++) {
      for (const kind of i % 2 ? (['reference', 'bare'] as const) : (['bare', 'reference'] as const)) {
        const cpu0 = await cpuOf(targets[kind]);
        const t = await measure(pools[kind], method, SECONDS / slices);
        totals[kind].cpu += (await cpuOf(targets[kind])) - cpu0;
        totals[kind].requests += t.requests;
        totals[kind].seconds += t.seconds;
      }
    }
  } finally {
    await Promise.all([pools.bare.close(), pools.reference.close()]);
  }
  const figures = (t: typeof totals.bare): Figures => ({
    rate: t.requests / t.seconds,
    cpuPerRequest: t.cpu / t.requests,
  });
  return { bare: figures(totals.bare), reference: figures(totals.reference) };
}

async function run(): Promise<void> {
  const targets = { bare: await start('bare'), reference: await start('reference') };
  try {
    let worst = Infinity;
    for (const method of ['GET', 'POST'] as const) {
      const { bare, reference: ref } = await compare(targets, method);
      const ratio = ref.rate / bare.rate;
      worst = Math.min(worst, ratio);
      console.log(
        `${method} /pets  bare ${bare.rate.toFixed(0)} req/s  reference ${ref.rate.toFixed(0)} req/s  ratio ${ratio.toFixed(2)}×` +
          `  (server CPU per request: bare ${bare.cpuPerRequest.toFixed(1)} µs, reference ${ref.cpuPerRequest.toFixed(1)} µs)`,
      );
    }
    console.log(`goal ≥ ${GOAL}×: ${worst >= GOAL ? 'met' : 'MISSED'} (worst ratio ${worst.toFixed(2)}×)`);
    if (worst < GOAL) process.exitCode = 1;
  } finally {
    targets.bare.child.kill();
    targets.reference.child.kill();
  }
}

await run();
